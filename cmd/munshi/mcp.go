package main

import (
	"context"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports"
)

// mcpUser is who an MCP client acts as: the owner's permissions, audited
// as "mcp".
var mcpUser = domain.User{Phone: "mcp", Name: "MCP operator", Role: domain.RoleOwner}

// mcpPageRows is how many rows one MCP tool call returns.
const mcpPageRows = 25

// cmdMCP serves the read-only business tools over stdio (the Model Context
// Protocol), so an operator can query the books from an MCP client. It
// opens MUNSHI_DB; stdout carries the protocol, logs go to stderr.
func cmdMCP(ctx context.Context, env environment, args []string) error {
	fs := newFlags("mcp", "usage: munshi mcp\n\nServes Munshi's read-only business tools (stock, out of stock, outstanding, pending orders,\nsales summary, top customers, payments received) over stdin/stdout with the Model Context\nProtocol. Calls run with the owner's permissions and are audited as \"mcp\".", env.stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return errUsage
	}
	cfg, err := loadConfig(env)
	if err != nil {
		return err
	}
	logger := NewMain(cfg, false, env.stderr).Logger
	books, err := store.Open(ctx, cfg.DB, store.WithPoolSize(cfg.DBPool))
	if err != nil {
		return err
	}
	defer books.Close()
	tools, err := mcpTools(ctx, books, audit.New(books, cfg.Secrets(), logger))
	if err != nil {
		return err
	}
	tools.Logger, tools.Location = logger, cfg.Location
	transport := &mcp.IOTransport{Reader: io.NopCloser(env.stdin), Writer: nopWriteCloser{env.stdout}}
	if err := newMCPServer(tools).Run(ctx, transport); err != nil && ctx.Err() == nil {
		return fmt.Errorf("mcp: %w", err)
	}
	return nil
}

// mcpTools wires the tools over the store, reading names the way WhatsApp
// messages are read (aliases, Hindi spellings, typos).
func mcpTools(ctx context.Context, books store.Store, rec reports.Recorder) (*reports.Tools, error) {
	products, err := books.Products(ctx)
	if err != nil {
		return nil, err
	}
	customers, err := books.Customers(ctx)
	if err != nil {
		return nil, err
	}
	router, err := intent.NewRouter(intent.Vocabulary{Products: products, Customers: customers}, intent.Options{})
	if err != nil {
		return nil, err
	}
	tools := reports.NewTools(books, rec)
	tools.Names = router
	tools.PageRows = mcpPageRows
	return tools, nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// The tools' typed inputs. Their JSON schemas come from reports.Specs, so
// the MCP client, the agent's model and the tools agree on one description.
type (
	stockInput struct {
		Product  string `json:"product,omitempty"`
		Quantity int64  `json:"quantity,omitempty"`
		Unit     string `json:"unit,omitempty"`
		Offset   int    `json:"offset,omitempty"`
	}
	pageInput struct {
		Offset int `json:"offset,omitempty"`
	}
	customerInput struct {
		Customer string `json:"customer,omitempty"`
		Offset   int    `json:"offset,omitempty"`
	}
	salesInput struct {
		Period   string `json:"period,omitempty"`
		By       string `json:"by,omitempty"`
		Product  string `json:"product,omitempty"`
		Customer string `json:"customer,omitempty"`
		Offset   int    `json:"offset,omitempty"`
	}
	topInput struct {
		Period string `json:"period,omitempty"`
		Offset int    `json:"offset,omitempty"`
	}
	digestInput struct {
		Edition string `json:"edition,omitempty"`
	}
	statusInput struct {
		Order    string `json:"order,omitempty"`
		Latest   bool   `json:"latest,omitempty"`
		Customer string `json:"customer,omitempty"`
		Period   string `json:"period,omitempty"`
		Offset   int    `json:"offset,omitempty"`
	}
	paymentsInput struct {
		Period   string `json:"period,omitempty"`
		From     string `json:"from,omitempty"`
		To       string `json:"to,omitempty"`
		Customer string `json:"customer,omitempty"`
		Mode     string `json:"mode,omitempty"`
		By       string `json:"by,omitempty"`
		Offset   int    `json:"offset,omitempty"`
	}
)

// newMCPServer serves every tool of reports.Specs through tools.Call, as
// mcpUser.
func newMCPServer(tools *reports.Tools) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "munshi", Title: "Munshi business tools (read-only)", Version: "1"}, nil)
	for _, spec := range reports.Specs() {
		switch spec.Name {
		case reports.ToolCheckStock:
			addTool(s, tools, spec, func(in stockInput) map[string]any {
				return toolArgs("product", in.Product, "quantity", in.Quantity, "unit", in.Unit, "offset", in.Offset)
			})
		case reports.ToolOutOfStock:
			addTool(s, tools, spec, func(in pageInput) map[string]any { return toolArgs("offset", in.Offset) })
		case reports.ToolOutstanding, reports.ToolPendingOrders:
			addTool(s, tools, spec, func(in customerInput) map[string]any {
				return toolArgs("customer", in.Customer, "offset", in.Offset)
			})
		case reports.ToolSalesSummary:
			addTool(s, tools, spec, func(in salesInput) map[string]any {
				return toolArgs("period", in.Period, "by", in.By, "product", in.Product, "customer", in.Customer, "offset", in.Offset)
			})
		case reports.ToolTopCustomers:
			addTool(s, tools, spec, func(in topInput) map[string]any { return toolArgs("period", in.Period, "offset", in.Offset) })
		case reports.ToolOrderStatus:
			addTool(s, tools, spec, func(in statusInput) map[string]any {
				return toolArgs("order", in.Order, "latest", in.Latest, "customer", in.Customer, "period", in.Period, "offset", in.Offset)
			})
		case reports.ToolDailyDigest:
			addTool(s, tools, spec, func(in digestInput) map[string]any { return toolArgs("edition", in.Edition) })
		case reports.ToolPaymentsReceived:
			addTool(s, tools, spec, func(in paymentsInput) map[string]any {
				return toolArgs("period", in.Period, "from", in.From, "to", in.To, "customer", in.Customer, "mode", in.Mode,
					"by", in.By, "offset", in.Offset)
			})
		default:
			panic("mcp: no input type for tool " + spec.Name)
		}
	}
	return s
}

// addTool registers one tool: the reply text is the WhatsApp rendering, the
// structured content the tool's snapshot; refusals and bad arguments come
// back as tool errors with the polite message.
func addTool[In any](s *mcp.Server, tools *reports.Tools, spec reports.ToolSpec, toArgs func(In) map[string]any) {
	tool := &mcp.Tool{
		Name:        spec.Name,
		Description: spec.Description,
		InputSchema: inputSchema(spec),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, Title: spec.Name},
	}
	mcp.AddTool(s, tool, func(ctx context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		res, err := tools.Call(ctx, mcpUser, spec.Name, toArgs(in))
		if err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: reports.ErrorText(res, err)}}}, nil, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Text}}}, res.Snapshot(nil, mcpPageRows), nil
	})
}

// inputSchema writes a tool's parameters as a JSON schema object.
func inputSchema(spec reports.ToolSpec) map[string]any {
	props := map[string]any{}
	var required []string
	for _, p := range spec.Parameters {
		prop := map[string]any{"type": p.Type, "description": p.Description}
		if len(p.Enum) > 0 {
			prop["enum"] = p.Enum
		}
		if p.Type == "integer" {
			prop["minimum"] = 0
		}
		props[p.Name] = prop
		if p.Required {
			required = append(required, p.Name)
		}
	}
	schema := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		schema["required"] = required
	}
	return schema
}

// toolArgs builds tool arguments from name, value pairs, leaving out empty ones.
func toolArgs(kv ...any) map[string]any {
	out := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		switch v := kv[i+1].(type) {
		case string:
			if v != "" {
				out[kv[i].(string)] = v
			}
		case int:
			if v != 0 {
				out[kv[i].(string)] = v
			}
		case int64:
			if v != 0 {
				out[kv[i].(string)] = v
			}
		case bool:
			if v {
				out[kv[i].(string)] = v
			}
		}
	}
	return out
}
