package reports

import "context"

// ToolSpec describes one business tool to a tool-calling model.
type ToolSpec struct {
	Name        string
	Description string
	Parameters  []ParamSpec
}

// ParamSpec is one argument of a tool.
type ParamSpec struct {
	Name        string
	Type        string // "string", "integer" or "number"
	Description string
	Enum        []string
	Required    bool
}

// ToolCall is a model's request to run a tool.
type ToolCall struct {
	ID   string
	Name string
	Args map[string]any
}

// ToolResult is what a tool returned, as the compact snapshot the model
// sees (row count, columns, the first rows), never a whole table.
type ToolResult struct {
	CallID   string
	Name     string
	Snapshot map[string]any
}

// AgentMessage is one entry of the agent's transcript: the person's
// question (Role "user"), the model's text or tool calls (Role "model"), or
// tool results going back to the model (Role "tool").
type AgentMessage struct {
	Role    string
	Text    string
	Calls   []ToolCall
	Results []ToolResult
}

// AgentModel is one step of a tool-calling model: given the transcript so
// far and the tools, it answers with text or asks for tool calls. The
// Gemini adapter implements it with function declarations; tests fake it.
type AgentModel interface {
	Step(ctx context.Context, transcript []AgentMessage, tools []ToolSpec) (AgentMessage, error)
}
