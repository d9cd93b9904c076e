package rating

import (
	"fmt"
	"math"
)

// Ordinal returns Mu - 3·Sigma: a skill the player is very likely to have
// at least, the reference's ordinal with its defaults (z 3, alpha 1,
// target 0). It is 0 for a newcomer and rises as games make Sigma smaller,
// so a table sorted by it puts settled players above lucky newcomers.
func Ordinal(r Rating) float64 {
	return r.Mu - 3*r.Sigma
}

// Provisional reports whether r is still too uncertain to be taken at its
// word: its Sigma is above the model's ProvisionalSigma.
func (m Model) Provisional(r Rating) bool {
	return r.Sigma > m.ProvisionalSigma
}

// Display is a rating as a person sees it, on the Elo scale: a newcomer is
// 1500, and between two settled players of a two-sided game a difference
// of 400 points means the stronger wins about ten times in eleven.
type Display struct {
	Number      int  // the rating: 1500 + Scale·(Mu - the model's Mu), rounded
	Deviation   int  // Scale·Sigma, rounded: one standard deviation of Number, to show on hover
	Provisional bool // Sigma is above the model's ProvisionalSigma: show Number as "1500?"
}

// Scale returns the display points per unit of Mu, 400/(ln 10·√2·Beta):
// about 29.5 with the default Beta. In the Plackett-Luce model one side
// of two beats the other with probability 1/(1+exp(-ΔMu/c)), and c, the
// square root of the sides' variances plus 2·Beta², tends to √2·Beta as
// their Sigmas shrink; Elo's is 1/(1+10^(-Δ/400)). Equating the exponents
// gives Δ = ΔMu·Scale.
func (m Model) Scale() float64 {
	return 400 / (math.Ln10 * math.Sqrt2 * m.Beta)
}

// Show returns r as a person sees it: with the default model a newcomer
// is 1500 ± 246, provisional.
func (m Model) Show(r Rating) Display {
	s := m.Scale()
	return Display{
		Number:      int(math.Round(1500 + s*(r.Mu-m.Mu))),
		Deviation:   int(math.Round(s * r.Sigma)),
		Provisional: m.Provisional(r),
	}
}

// String returns the number alone, with a question mark when provisional:
// "1624", "1500?".
func (d Display) String() string {
	if d.Provisional {
		return fmt.Sprintf("%d?", d.Number)
	}
	return fmt.Sprintf("%d", d.Number)
}
