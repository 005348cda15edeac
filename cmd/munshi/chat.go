package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

func cmdChat(ctx context.Context, env environment, args []string) error {
	fs := newFlags("chat", "usage: munshi chat --as PHONE [--demo]\n\nTalks to Munshi in the terminal as the WhatsApp user with that phone,\nthrough the same pipeline as the webhook. One message per line; Ctrl-D ends.\nCharts and files in the replies are served on a free loopback port while\nthe chat runs, unless MUNSHI_PUBLIC_URL points the links elsewhere.", env.stderr)
	as := fs.String("as", "", "the user's phone in E.164 form, such as +919900000003")
	demoMode := fs.Bool("demo", false, "seed an empty database with the demo distributor first")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	phone, err := domain.ParsePhone(*as)
	if err != nil {
		fmt.Fprintf(env.stderr, "munshi chat: --as: %v\n", err)
		return errUsage
	}
	cfg, err := loadConfig(env)
	if err != nil {
		return err
	}
	if env.getenv("MUNSHI_LOG_LEVEL") == "" {
		cfg.LogLevel = "warn" // keep the terminal for the conversation
	}
	// Without MUNSHI_PUBLIC_URL no server would answer the links in the
	// replies: the chat serves its own charts and files on a free
	// loopback port while it runs.
	var files net.Listener
	if cfg.PublicURL == "" {
		if files, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			return fmt.Errorf("chat: serving files: %w", err)
		}
		cfg.Addr = files.Addr().String()
	}
	m := NewMain(cfg, *demoMode, env.stderr)
	defer m.Close()
	if err := m.Open(ctx); err != nil {
		if files != nil {
			files.Close()
		}
		return err
	}
	// The dispatcher stops before Close closes the database under it.
	sending, stopSending := context.WithCancel(ctx)
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		m.Dispatcher.Run(sending)
	}()
	defer func() {
		stopSending()
		<-sent
	}()
	if files != nil {
		defer m.serveMedia(files).Close()
	}

	session := make([]byte, 4)
	rand.Read(session)
	prefix := "CHAT" + hex.EncodeToString(session)
	fmt.Fprintf(env.stdout, "Chatting with Munshi as %s. Type a message; Ctrl-D to end.\n", phone)
	if files != nil {
		fmt.Fprintf(env.stdout, "Charts and files in the replies are served at %s/media/ while this chat runs.\n", m.publicBase())
	}
	sc := bufio.NewScanner(env.stdin)
	sc.Buffer(make([]byte, 64<<10), 64<<10)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			n--
			continue
		}
		in := domain.Inbound{SID: fmt.Sprintf("%s%06d", prefix, n), From: phone, Body: text, Received: time.Now()}
		reply, _, err := m.Pipeline.Handle(ctx, in)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.stdout, "munshi> %s\n", strings.ReplaceAll(reply.Text, "\n", "\n        "))
		for _, u := range reply.MediaURLs {
			fmt.Fprintf(env.stdout, "        [media] %s\n", u)
		}
		if ctx.Err() != nil {
			break
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("chat: read: %w", err)
	}
	return nil
}
