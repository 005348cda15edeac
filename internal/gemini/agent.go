package gemini

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"google.golang.org/genai"

	"github.com/munshi/munshi/internal/llmbudget"
	"github.com/munshi/munshi/reports"
)

// callIDPrefix marks the ids Munshi gives calls Gemini sent without one;
// they are not sent back, since Gemini never issued them.
const callIDPrefix = "munshi-call-"

var paramTypes = map[string]genai.Type{
	"string":  genai.TypeString,
	"integer": genai.TypeInteger,
	"number":  genai.TypeNumber,
	"boolean": genai.TypeBoolean,
}

// Step is one turn of the owners' question agent: given the transcript
// and the tools, Gemini answers with text or asks for tool calls, in one
// request. The reports package runs the loop, counts its steps and runs
// the tools (checking their arguments); a call to a tool not offered is
// ErrMalformed. A summary set with llmbudget.WithSummary on ctx goes with
// the first user message.
func (c *Client) Step(ctx context.Context, transcript []reports.AgentMessage, tools []reports.ToolSpec) (reports.AgentMessage, error) {
	decls, err := declarations(tools)
	if err != nil {
		return reports.AgentMessage{}, fmt.Errorf("gemini: agent: %w", err)
	}
	contents, err := agentContents(transcript, llmbudget.Summary(ctx))
	if err != nil {
		return reports.AgentMessage{}, fmt.Errorf("gemini: agent: %w", err)
	}
	cfg := &genai.GenerateContentConfig{
		SystemInstruction:     instruction(agentInstruction),
		Temperature:           genai.Ptr[float32](0),
		AutomaticContinuation: genai.Ptr(false),
	}
	if len(decls) > 0 {
		cfg.Tools = []*genai.Tool{{FunctionDeclarations: decls}}
	}
	var msg reports.AgentMessage
	err = c.generate(ctx, PurposeAgent, contents, cfg, func(resp *genai.GenerateContentResponse) error {
		var err error
		msg, err = agentReply(resp, tools, len(transcript))
		return err
	})
	if err != nil {
		return reports.AgentMessage{}, err
	}
	return msg, nil
}

func declarations(tools []reports.ToolSpec) ([]*genai.FunctionDeclaration, error) {
	var decls []*genai.FunctionDeclaration
	for _, t := range tools {
		if t.Name == "" {
			return nil, errors.New("a tool has no name")
		}
		params := &genai.Schema{Type: genai.TypeObject, Properties: map[string]*genai.Schema{}}
		for _, p := range t.Parameters {
			typ, ok := paramTypes[p.Type]
			if !ok {
				return nil, fmt.Errorf("tool %s: parameter %s has type %q", t.Name, p.Name, p.Type)
			}
			s := &genai.Schema{Type: typ, Description: p.Description}
			if typ == genai.TypeString && len(p.Enum) > 0 {
				s.Enum, s.Format = p.Enum, "enum"
			}
			params.Properties[p.Name] = s
			params.PropertyOrdering = append(params.PropertyOrdering, p.Name)
			if p.Required {
				params.Required = append(params.Required, p.Name)
			}
		}
		decl := &genai.FunctionDeclaration{Name: t.Name, Description: t.Description}
		if len(t.Parameters) > 0 {
			decl.Parameters = params
		}
		decls = append(decls, decl)
	}
	return decls, nil
}

// agentContents turns the transcript into Gemini's turns: the person's
// words as quoted data, the model's text and calls as they were, and tool
// results as function responses.
func agentContents(transcript []reports.AgentMessage, summary string) ([]*genai.Content, error) {
	if len(transcript) == 0 {
		return nil, errors.New("the transcript is empty")
	}
	sum, err := summaryPart(summary)
	if err != nil {
		return nil, err
	}
	var contents []*genai.Content
	for i, m := range transcript {
		switch m.Role {
		case "user":
			msg, err := dataPart("Message (data)", struct {
				Message string `json:"message"`
			}{clip(m.Text, maxMessageRunes)})
			if err != nil {
				return nil, err
			}
			contents = append(contents, userTurn(sum, msg))
			sum = nil
		case "model":
			c := &genai.Content{Role: genai.RoleModel}
			if m.Text != "" {
				c.Parts = append(c.Parts, &genai.Part{Text: m.Text})
			}
			for _, call := range m.Calls {
				c.Parts = append(c.Parts, &genai.Part{FunctionCall: &genai.FunctionCall{ID: sentID(call.ID), Name: call.Name, Args: call.Args}})
			}
			if len(c.Parts) == 0 {
				return nil, fmt.Errorf("message %d from the model is empty", i+1)
			}
			contents = append(contents, c)
		case "tool":
			c := &genai.Content{Role: genai.RoleUser}
			for _, r := range m.Results {
				snap := r.Snapshot
				if snap == nil {
					snap = map[string]any{} // Gemini wants an object
				}
				c.Parts = append(c.Parts, &genai.Part{FunctionResponse: &genai.FunctionResponse{ID: sentID(r.CallID), Name: r.Name, Response: snap}})
			}
			if len(c.Parts) == 0 {
				return nil, fmt.Errorf("message %d has no tool results", i+1)
			}
			contents = append(contents, c)
		default:
			return nil, fmt.Errorf("message %d has role %q", i+1, m.Role)
		}
	}
	return contents, nil
}

func sentID(id string) string {
	if strings.HasPrefix(id, callIDPrefix) {
		return ""
	}
	return id
}

// agentReply reads the model's turn. Calls get ids unique in the
// transcript (step number and position) when Gemini gave none.
func agentReply(resp *genai.GenerateContentResponse, tools []reports.ToolSpec, step int) (reports.AgentMessage, error) {
	text, calls, err := answer(resp)
	if err != nil {
		return reports.AgentMessage{}, err
	}
	msg := reports.AgentMessage{Role: "model", Text: strings.TrimSpace(text)}
	for i, fc := range calls {
		if !offered(tools, fc.Name) {
			return reports.AgentMessage{}, fmt.Errorf("call to %s, a tool not offered", excerpt(fc.Name))
		}
		id := fc.ID
		if id == "" {
			id = fmt.Sprintf("%s%d-%d", callIDPrefix, step, i+1)
		}
		args := fc.Args
		if args == nil {
			args = map[string]any{}
		}
		msg.Calls = append(msg.Calls, reports.ToolCall{ID: id, Name: fc.Name, Args: args})
	}
	if msg.Text == "" && len(msg.Calls) == 0 {
		return reports.AgentMessage{}, errors.New("neither text nor tool calls")
	}
	return msg, nil
}

func offered(tools []reports.ToolSpec, name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}
