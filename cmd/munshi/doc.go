// Command munshi runs Munshi, the WhatsApp operations bot for distributors:
//
//	munshi serve [--demo]            the HTTP server Twilio calls
//	munshi chat --as PHONE           a terminal conversation through the same pipeline
//	munshi route [--json] [TEXT...]  how messages are routed, with no side effects
//	munshi eval FILE.jsonl           routing and parsing scores on labelled messages
//	munshi import catalog|customers|users FILE.csv
//
// This package holds flags, wiring and signals only; the work is done by the
// packages it wires together.
package main
