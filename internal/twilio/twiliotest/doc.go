// Package twiliotest runs a fake of the part of Twilio's REST API Munshi
// uses, on 127.0.0.1, speaking Twilio's wire format: POST
// /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded (To, From,
// Body, MediaUrl, ContentSid, ContentVariables, StatusCallback), with basic
// auth checked. It answers a created message with Twilio's JSON (a sid
// "SM…", status "queued") and a refusal with Twilio's error body
// ({"code":21211,"message":…,"more_info":…,"status":400}).
//
// It serves inbound media too: AddMedia gives a file a URL as Twilio
// writes it in MediaUrlN (https://api.twilio.com/2010-04-01/Accounts/…/Media/ME…,
// fetched through TWILIO_API_URL), which wants basic auth and answers 307
// to a CDN path on the same host that serves the bytes without auth.
// MediaFail, MediaHang, MediaLie, MediaChunked, MediaRedirect and MediaLoop
// program its failures; MediaRequests and MediaFetches read them back.
//
// Tests program failures (an error for the next calls, or for every
// message to a phone), hold or delay answers, and read back every request.
//
// It is for tests only: non-test code must not import it. It imports
// nothing of Munshi, so that the tests of twilio itself may use it.
package twiliotest
