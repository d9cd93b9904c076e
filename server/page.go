package server

import (
	"io"
	"net/http"
)

// indexPage is the page at /, until the web client comes.
const indexPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Chaturaji</title>
<style>body{font-family:system-ui,sans-serif;max-width:40em;margin:3em auto;padding:0 1em;line-height:1.5}</style>
</head>
<body>
<h1>Chaturaji</h1>
<p>This is a Chaturaji game server. The web client is coming; until then,
play through the open API: list the games at <a href="/api/games">/api/games</a>,
and see <code>docs/api.md</code> for creating games, acting and following
them over WebSockets.</p>
<p><a href="/healthz">health</a> · <a href="/metrics">metrics</a></p>
</body>
</html>
`

// handleIndex serves the placeholder page at /.
func (s *Server) handleIndex(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	h.Set("X-Content-Type-Options", "nosniff")
	io.WriteString(w, indexPage)
}
