// Package geminitest runs a fake of Gemini's generateContent REST API on
// 127.0.0.1, speaking its wire format: POST
// /v1beta/models/{model}:generateContent with the key in the
// x-goog-api-key header, answered with Gemini's JSON (candidates[].content
// .parts[], finishReason, usageMetadata) or Google's error JSON
// ({"error":{"code":429,"message":…,"status":"RESOURCE_EXHAUSTED"}}).
//
// Tests script the answers (text, function calls, errors, delays, a hang
// until released) and read back every request's body, so that they can
// check, for one, that the system instruction is byte-identical across
// calls. A request Munshi must never make (another path or model, a wrong
// key, the key in the URL) is answered as Google does and fails the test.
//
// It is for tests only: non-test code must not import it. It imports
// nothing of Munshi, so that the tests of gemini itself may use it.
package geminitest
