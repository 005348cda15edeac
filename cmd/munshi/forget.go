package main

import (
	"context"
	"fmt"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/redis"
)

func cmdForget(ctx context.Context, env environment, args []string) error {
	fs := newFlags("forget", "usage: munshi forget PHONE\n\nDeletes everything Munshi remembers of a person's conversation (REDIS_URL).", env.stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	phone, err := domain.ParsePhone(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(env.stderr, "munshi forget: %v\n", err)
		return errUsage
	}
	cfg, err := loadConfig(env)
	if err != nil {
		return err
	}
	if cfg.RedisURL == "" {
		fmt.Fprintf(env.stdout, "REDIS_URL is not set: conversation memory lives inside the running server, which forgets %s when it restarts and in any case 24 hours after their last message.\n", phone)
		return nil
	}
	store, err := redis.New(cfg.RedisURL, cfg.RedisPrefix, redis.Options{})
	if err != nil {
		return err
	}
	defer store.Close()
	if err := store.Forget(ctx, phone); err != nil {
		return fmt.Errorf("forget: %w", err)
	}
	fmt.Fprintf(env.stdout, "forgot the conversation with %s\n", phone)
	return nil
}
