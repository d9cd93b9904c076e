package server

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// A client is who a request comes from, as the limits count: an IPv4
// address (a /32) or an IPv6 /64 network. The zero client stands for a
// peer whose address cannot be read (none on TCP).
type client = netip.Prefix

// ipv6ClientBits is the size of the IPv6 network one client is taken to
// hold: a subscriber is usually given a /64 whole, so counting its
// addresses one by one would give it billions of budgets.
const ipv6ClientBits = 64

// clientOf returns the client of a request: its peer's address, unless
// the peer is one of the trusted proxies, in which case the right-most
// address of X-Forwarded-For that is not a trusted proxy. Each proxy
// appends the address it got the request from, so the entries to the left
// of the last untrusted one could have been written by the client itself
// and are never believed.
func clientOf(r *http.Request, trusted []netip.Prefix) client {
	addr, ok := peerAddr(r)
	if !ok {
		return client{}
	}
	if len(trusted) > 0 && isTrusted(addr, trusted) {
		addr = forwardedFor(r.Header.Values("X-Forwarded-For"), addr, trusted)
	}
	return clientOfAddr(addr)
}

// forwardedFor walks the X-Forwarded-For entries from the right, starting
// from peer (a trusted proxy), while each hop so far is trusted; it returns
// the first untrusted one. An entry that is not an address stops the walk
// at the hop that wrote it; if every hop is trusted, the left-most is the
// client.
func forwardedFor(headers []string, peer netip.Addr, trusted []netip.Prefix) netip.Addr {
	addr := peer
	for i := len(headers) - 1; i >= 0; i-- {
		list := headers[i]
		for list != "" {
			var entry string
			if j := strings.LastIndexByte(list, ','); j >= 0 {
				list, entry = list[:j], list[j+1:]
			} else {
				list, entry = "", list
			}
			a, ok := parseForwarded(strings.TrimSpace(entry))
			if !ok {
				return addr
			}
			addr = a
			if !isTrusted(addr, trusted) {
				return addr
			}
		}
	}
	return addr
}

// parseForwarded reads one X-Forwarded-For entry: an address, perhaps with
// a port ("192.0.2.1:4711", "[2001:db8::1]:4711"), as some proxies write.
func parseForwarded(s string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap().WithZone(""), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap().WithZone(""), true
	}
	return netip.Addr{}, false
}

// peerAddr returns the address of the request's peer, without its port.
func peerAddr(r *http.Request) (netip.Addr, bool) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap().WithZone(""), true
}

// isTrusted reports whether addr is in one of the trusted prefixes.
func isTrusted(addr netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// clientOfAddr returns the client an address belongs to.
func clientOfAddr(a netip.Addr) client {
	if a.Is4() {
		return netip.PrefixFrom(a, 32)
	}
	p, _ := a.Prefix(ipv6ClientBits)
	return p
}

// ParseTrustedProxies reads a comma-separated list of CIDR prefixes or bare
// addresses (a whole /32 or /128), as Config.TrustedProxies takes them,
// such as "10.0.0.0/8, 2001:db8::1".
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if p, err := netip.ParsePrefix(item); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(item)
		if err != nil || a.Zone() != "" {
			return nil, fmt.Errorf("server: trusted proxy %q: want an address or a CIDR prefix, such as 10.0.0.0/8", item)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// requestInfo is what the front door learns of a request before it serves
// it: its client, its route and that route's cost.
type requestInfo struct {
	client    client
	forwarded bool   // another node of the cluster forwarded it (forward.go)
	refused   error  // it says another node forwarded it, but its signature does not hold
	route     string // the pattern of the route that serves it, such as "GET /api/games/{id}"
	class     Class
}

type requestInfoKey struct{}

// infoOf returns what the front door learnt of a request; a request that
// did not pass it (a handler called directly) counts as its peer, in
// General.
func infoOf(r *http.Request) *requestInfo {
	if ri, ok := r.Context().Value(requestInfoKey{}).(*requestInfo); ok {
		return ri
	}
	return &requestInfo{client: clientOf(r, nil), route: "unknown"}
}

// ClientOf returns the client a request counts against, as the limits
// tell clients apart: an IPv4 address or an IPv6 /64 network, that of the
// request's peer or, behind the front door (Site), the one the trusted
// proxies' X-Forwarded-For names. A handler mounted behind Site shares
// its own limits among clients by it.
func ClientOf(r *http.Request) netip.Prefix {
	return infoOf(r).client
}

// withInfo returns the request carrying ri.
func withInfo(r *http.Request, ri *requestInfo) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), requestInfoKey{}, ri))
}
