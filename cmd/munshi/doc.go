// Command munshi runs Munshi, the WhatsApp operations bot for distributors:
//
//	munshi serve [--demo]                          the HTTP server Twilio calls
//	munshi chat --as PHONE [--demo]                a terminal conversation through the same pipeline
//	munshi route [--json] [TEXT...]                how messages are routed, with no side effects
//	munshi eval FILE.jsonl                         routing and parsing scores on labelled messages
//	munshi import catalog|customers|users FILE.csv upsert a CSV file by key
//	munshi import orders|payments FILE.csv         order and payment history, idempotently
//	munshi digest [--date D] [--send] [--demo]     the daily digest of a date, printed or sent
//	munshi forget PHONE                            delete a person's conversation memory
//	munshi mcp                                     the read-only business tools over MCP (stdio)
//	munshi migrate --from FILE.db --to postgres://…  copy a SQLite database into an empty PostgreSQL one
//
// This package holds flags, wiring and signals only; the work is done by the
// packages it wires together.
package main
