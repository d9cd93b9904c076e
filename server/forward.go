package server

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"time"
)

// Forwarding. A request that changes a live game (an action, a claim, a
// new invite) reaching a node that does not drive the game is forwarded
// to the node that does, at the address it advertises, and answered
// exactly as that node answers, errors included. The forwarding node
// says who the client is, so that the driving node applies its limits to
// the client rather than to the node; it signs that with the cluster's
// key (HMAC-SHA256, Config.ClusterKey), which every node has from its key
// file and the database never holds, so that no client, and no reader of
// the database or its backups, can claim another's address, or report
// presence as a node. The signature covers the method, the path with its
// query, the SHA-256 of the body, the client, the node, the time and a
// nonce; the receiving node refuses (EFORBIDDEN) a signature that does
// not match, one whose time is further than Config.ForwardWindow from
// its own clock, and one it has accepted before (a request sent again),
// remembering the signatures it accepted until they are that old
// (Config.MaxForwardSignatures at most).
//
// If the driving node cannot be reached, or answers that it no longer
// drives the game, the request goes to the new driver once the store
// names one, until about two leases have passed (then EUNAVAILABLE). A
// request that may have reached a node that failed before answering is
// sent again only if it cannot be applied twice: an action that names
// the event it was sent after (seq), which a second try finds taken.
// Each try is signed anew.

// The headers between nodes.
const (
	hdrClient    = "Chaturaji-Client"    // the client's address (its prefix), as the front door found it
	hdrNode      = "Chaturaji-Node"      // the forwarding node
	hdrTime      = "Chaturaji-Time"      // when it was signed, Unix seconds
	hdrNonce     = "Chaturaji-Nonce"     // 16 random bytes, hex: no two requests are signed alike
	hdrSignature = "Chaturaji-Signature" // HMAC-SHA256 of the above, the method, the path and the body, hex
	hdrNotOwner  = "Chaturaji-Not-Owner" // on a 503: this node does not drive the game
)

// signature returns the HMAC-SHA256, with key, of a forwarded request:
// its method, its path with its query (uri), the SHA-256 of its body,
// the client, the forwarding node, the time and the nonce.
func signature(key []byte, method, uri string, body []byte, client, from, at, nonce string) []byte {
	sum := sha256.Sum256(body)
	m := hmac.New(sha256.New, key)
	for _, f := range []string{"chaturaji forwarded request", method, uri, hex.EncodeToString(sum[:]), client, from, at, nonce} {
		m.Write([]byte(f))
		m.Write([]byte{0}) // no header holds a NUL
	}
	return m.Sum(nil)
}

// signRequest signs req, whose body is body, as node from forwards it for
// client c, with key.
func signRequest(key []byte, req *http.Request, body []byte, c, from string) {
	var nonce [16]byte
	rand.Read(nonce[:])
	at, n := strconv.FormatInt(time.Now().Unix(), 10), hex.EncodeToString(nonce[:])
	req.Header.Set(hdrClient, c)
	req.Header.Set(hdrNode, from)
	req.Header.Set(hdrTime, at)
	req.Header.Set(hdrNonce, n)
	req.Header.Set(hdrSignature, hex.EncodeToString(signature(key, req.Method, req.URL.RequestURI(), body, c, from, at, n)))
}

// forwardedClient returns the client another node forwarded r for, or
// the reason r's signature does not hold (EFORBIDDEN; EUNAVAILABLE if
// the node remembers too many signatures to take another). It reads r's
// whole body, within Config.MaxBody and Config.BodyTimeout, since the
// signature covers it, and leaves it in r for the handler.
func (s *Server) forwardedClient(w http.ResponseWriter, r *http.Request) (client, error) {
	body, err := s.readBody(w, r)
	if err != nil {
		return client{}, err
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	c, err := s.node.verify(r, body, time.Now())
	if err != nil {
		s.repeats.Info("a request signed as another node's was refused", "peer", r.RemoteAddr, "node", r.Header.Get(hdrNode), "err", ErrorMessage(err))
	}
	return c, err
}

// verify checks the signature of r, whose body is body, at now, and
// returns the client it was forwarded for; a signature accepted is
// refused the next time.
func (n *node) verify(r *http.Request, body []byte, now time.Time) (client, error) {
	refuse := func(format string, args ...any) (client, error) {
		return client{}, Errorf(EFORBIDDEN, "a request forwarded by another node: "+format, args...)
	}
	c, from, at, nonce := r.Header.Get(hdrClient), r.Header.Get(hdrNode), r.Header.Get(hdrTime), r.Header.Get(hdrNonce)
	secs, err := strconv.ParseInt(at, 10, 64)
	if err != nil {
		return refuse("its time %q is not in Unix seconds", at)
	}
	signed := time.Unix(secs, 0)
	if d := now.Sub(signed); d.Abs() > n.window {
		return refuse("it was signed %v from this node's clock, over the window of %v", d.Round(time.Second), n.window)
	}
	sig, err := hex.DecodeString(r.Header.Get(hdrSignature))
	if err != nil || len(sig) != sha256.Size {
		return refuse("its signature is not %d hexadecimal digits", 2*sha256.Size)
	}
	if !hmac.Equal(sig, signature(n.key, r.Method, r.RequestURI, body, c, from, at, nonce)) {
		return refuse("its signature does not match it (nodes with different key files, or a request altered)")
	}
	p, err := netip.ParsePrefix(c)
	if err != nil {
		return refuse("its client %q is not an address prefix", c)
	}
	if err := n.seen.add([sha256.Size]byte(sig), signed.Add(n.window), now); err != nil {
		return client{}, err
	}
	return p, nil
}

// answer is a driving node's answer to a forwarded request.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// forward sends a request on game id to the node that drives it and
// returns its answer; local is true (and the answer nil) if this node
// drives the game now, so the caller serves the request itself. retry
// says whether the request may be sent again after a node failed with it
// in hand.
func (s *Server) forward(ctx context.Context, id, method, path string, header http.Header, body []byte, c client, retry bool) (ans *answer, local bool, err error) {
	deadline := time.Now().Add(2*s.cfg.Lease + 2*time.Second)
	wait := func() error {
		if time.Now().After(deadline) {
			s.metrics.forwarded.WithLabelValues("unavailable").Inc()
			return unavailable(time.Second, "the node that drives game %s does not answer, and no other has taken it over yet; try again", id)
		}
		select {
		case <-time.After(max(s.cfg.Lease/20, 20*time.Millisecond)):
			return nil
		case <-ctx.Done():
			return Errorf(EUNAVAILABLE, "the request was cancelled while the game changed hands")
		}
	}
	for {
		owner, addr, err := s.node.cl.Owner(ctx, id)
		if err != nil {
			return nil, false, s.storeError(id, err)
		}
		if owner == s.node.id && s.owns(id) {
			return nil, true, nil
		}
		if owner == "" || owner == s.node.id { // no lease in force, or this node is loading it
			if err := wait(); err != nil {
				return nil, false, err
			}
			continue
		}
		ans, sent, err := s.send(ctx, addr, method, path, header, body, c)
		switch {
		case err == nil && ans.status == http.StatusServiceUnavailable && ans.header.Get(hdrNotOwner) != "":
		case err == nil:
			s.metrics.forwarded.WithLabelValues("answered").Inc()
			return ans, false, nil
		case sent && !retry:
			s.log.Warn("forwarding: the driving node failed with the request in hand", "game", id, "node", owner, "err", err)
			s.metrics.forwarded.WithLabelValues("unavailable").Inc()
			return nil, false, unavailable(time.Second, "the node that drives game %s failed while it had the request, which may or may not have been applied: read the game's events, then try again if it was not", id)
		}
		if err := wait(); err != nil {
			return nil, false, err
		}
	}
}

// send sends one forwarded request to the node at addr; sent is false if
// it surely did not reach it (the connection was refused).
func (s *Server) send(ctx context.Context, addr, method, path string, header http.Header, body []byte, c client) (*answer, bool, error) {
	req, err := http.NewRequestWithContext(ctx, method, addr+path, bytes.NewReader(body))
	if err != nil {
		return nil, false, err
	}
	for _, h := range []string{"Authorization", "Content-Type"} {
		if v := header.Get(h); v != "" {
			req.Header.Set(h, v)
		}
	}
	// The session's cookie alone, of the client's: the other node acts
	// for the seat of the same account (holder.go).
	if c, err := (&http.Request{Header: header}).Cookie(SessionCookie); err == nil {
		req.AddCookie(&http.Cookie{Name: SessionCookie, Value: c.Value})
	}
	signRequest(s.node.key, req, body, c.String(), s.node.id)
	resp, err := s.node.client.Do(req)
	if err != nil {
		var op *net.OpError
		return nil, !(errors.As(err, &op) && op.Op == "dial"), err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, true, err
	}
	return &answer{status: resp.StatusCode, header: resp.Header, body: data}, true, nil
}

// write answers a client with a forwarded answer.
func (a *answer) write(w http.ResponseWriter) {
	for _, h := range []string{"Content-Type", "Cache-Control", "Retry-After", "Location"} {
		if v := a.header.Get(h); v != "" {
			w.Header().Set(h, v)
		}
	}
	w.WriteHeader(a.status)
	w.Write(a.body)
}

// err returns the error of a forwarded answer, nil if it is a success.
func (a *answer) err() error {
	if a.status < 300 {
		return nil
	}
	var b errorBody
	if json.Unmarshal(a.body, &b) != nil || b.Error == nil {
		return Errorf(EINTERNAL, "the driving node answered %d", a.status)
	}
	if s, err := strconv.Atoi(a.header.Get("Retry-After")); err == nil {
		b.Error.retry = time.Duration(s) * time.Second
	}
	return b.Error
}

// forwardHeader returns the headers of r to forward to another node: its
// session cookie only if r comes from the server's own origin, as it
// counts only then (session.go).
func forwardHeader(r *http.Request) http.Header {
	if sameOrigin(r) {
		return r.Header
	}
	h := r.Header.Clone()
	h.Del("Cookie")
	return h
}

// notOwner answers a forwarded request that reached a node that does not
// drive the game (any more): the forwarding node asks the store again.
func (s *Server) notOwner(w http.ResponseWriter, r *http.Request) {
	w.Header().Set(hdrNotOwner, "1")
	s.fail(w, r, unavailable(time.Second, "this node does not drive the game; ask the node that does"))
}

// owning wraps the handler of a request that changes a live game: with
// Config.Cluster, a request on a live game this node does not drive is
// forwarded to the node that does.
func (s *Server) owning(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if s.node == nil || !validID(id) || s.owns(id) {
			h(w, r)
			return
		}
		info, err := s.store.Game(r.Context(), id)
		if err != nil || info.Status != "live" {
			h(w, r) // it answers as for any game not live
			return
		}
		if infoOf(r).forwarded {
			s.notOwner(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody))
		if err != nil {
			s.fail(w, r, Errorf(ETOOLARGE, "the body is over the limit of %d bytes", s.cfg.MaxBody))
			return
		}
		ans, local, err := s.forward(r.Context(), id, r.Method, r.URL.RequestURI(), forwardHeader(r), body, infoOf(r).client, retriable(r.URL.Path, body))
		switch {
		case err != nil:
			s.fail(w, r, err)
		case local:
			r.Body = io.NopCloser(bytes.NewReader(body))
			h(w, r)
		default:
			ans.write(w)
		}
	}
}

// retriable reports whether a request may be sent again after a node
// failed with it: an action that names the event it was sent after.
func retriable(path string, body []byte) bool {
	var m Message
	if len(path) < len("/actions") || path[len(path)-len("/actions"):] != "/actions" || json.Unmarshal(body, &m) != nil {
		return false
	}
	return (m.Kind == "" || m.Kind == "action") && m.Seq > 0
}

// forwardMessage forwards a holder's message (from a WebSocket, or an
// action its loop turned away) to the node that drives the game, as POST
// /api/games/{id}/actions with the seat's token or its account's session
// (cred), and returns that node's verdict; local is true if this node
// drives the game now.
func (s *Server) forwardMessage(ctx context.Context, id string, cred credential, m *Message, c client) (ans *answer, local bool, err error) {
	body, err := json.Marshal(m)
	if err != nil {
		return nil, false, err
	}
	h := http.Header{}
	query := cred.header(h)
	h.Set("Content-Type", "application/json")
	seq := m.Seq > 0 && m.Kind == "action"
	return s.forward(ctx, id, http.MethodPost, "/api/games/"+id+"/actions"+query, h, body, c, seq)
}
