// Package twiliotest runs a fake of the part of Twilio's REST API Munshi
// uses, on 127.0.0.1, speaking Twilio's wire format: POST
// /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded (To, From,
// Body, MediaUrl, ContentSid, ContentVariables, StatusCallback), with basic
// auth checked. It answers a created message with Twilio's JSON (a sid
// "SM…", status "queued") and a refusal with Twilio's error body
// ({"code":21211,"message":…,"more_info":…,"status":400}).
//
// Tests program failures (an error for the next calls, or for every
// message to a phone), hold or delay answers, and read back every request.
//
// It is for tests only: non-test code must not import it. It imports
// nothing of Munshi, so that the tests of twilio itself may use it.
package twiliotest
