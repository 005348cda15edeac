package proxytest

import (
	"io"
	"net"
	"sync"
	"testing"

	"github.com/munshi/munshi/internal/patience"
)

// Proxy forwards every connection to its target while it runs.
type Proxy struct {
	addr, target string
	mu           sync.Mutex
	ln           net.Listener
	conns        []net.Conn
}

// New starts a proxy to target on a free loopback port; it stops when t
// ends.
func New(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{addr: ln.Addr().String(), target: target}
	p.serve(ln)
	t.Cleanup(p.Stop)
	return p
}

// Addr is where the proxy listens, the same across a restart.
func (p *Proxy) Addr() string { return p.addr }

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { io.Copy(up, c); up.Close() }()
			go func() { io.Copy(c, up); c.Close() }()
		}
	}()
}

// Stop closes the listener and every connection: the server is gone.
func (p *Proxy) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// Restart listens again on the same address: the server is back.
func (p *Proxy) Restart(t testing.TB) {
	t.Helper()
	var ln net.Listener
	patience.WaitFor(t, "the proxy's address to be free again", func() bool {
		var err error
		ln, err = net.Listen("tcp", p.addr)
		return err == nil
	})
	p.serve(ln)
}
