package record_test

import (
	"fmt"
	"log"

	"github.com/chaturaji/chaturaji/record"
)

func Example() {
	recs, err := record.ParseString(`[Rules "chaturaji"]
[Result "*"]

b 5 d2d3  y 3 a7c6  g 3 g8h6  r 2 h1f3
`)
	if err != nil {
		log.Fatal(err)
	}
	g, err := recs[0].Replay()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.Position())
	// Output:
	// yByP2gKgE1gB/1yP2gPgPgPgP/yEyPyH4gH/yKyP6/6rPrK/3bP1rBrPrE/bPbPbP3rPrH/bBbHbEbK2rP1 b - 0,0,0,0 3
}
