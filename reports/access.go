package reports

import (
	"fmt"
	"slices"
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// access says which roles may use each tool. Sales staff see pending
// orders too, but only the ones they placed: Call narrows the query.
var access = map[string][]domain.Role{
	ToolCheckStock:    {domain.RoleOwner, domain.RoleSales},
	ToolOutOfStock:    {domain.RoleOwner, domain.RoleSales},
	ToolOutstanding:   {domain.RoleOwner, domain.RoleAccounts},
	ToolPendingOrders: {domain.RoleOwner, domain.RoleAccounts, domain.RoleSales},
	ToolSalesSummary:  {domain.RoleOwner, domain.RoleAccounts},
	ToolTopCustomers:  {domain.RoleOwner, domain.RoleAccounts},
	// Sales staff see the orders they placed: Call narrows the query.
	ToolOrderStatus: {domain.RoleOwner, domain.RoleAccounts, domain.RoleSales},
	// Accounts get the dues part of the digest.
	ToolDailyDigest: {domain.RoleOwner, domain.RoleAccounts},
	// Collections go with the dues they settle.
	ToolPaymentsReceived: {domain.RoleOwner, domain.RoleAccounts},
}

// Allowed reports whether a role may use a tool.
func Allowed(role domain.Role, tool string) bool {
	return slices.Contains(access[tool], role)
}

// Refusal is the polite answer to a person whose role may not use a tool:
// it says who can see it.
func Refusal(user domain.User, tool string) string {
	name := "there"
	if f := strings.Fields(user.Name); len(f) > 0 {
		name = f[0]
	}
	what := map[string]string{
		ToolCheckStock: "Stock figures are", ToolOutOfStock: "Stock figures are",
		ToolOutstanding: "Dues and outstanding are", ToolPendingOrders: "Pending orders are",
		ToolSalesSummary: "Sales figures are", ToolTopCustomers: "Sales figures are",
		ToolOrderStatus: "Orders are",
		ToolDailyDigest: "The daily digest is", ToolPaymentsReceived: "Payments received are",
	}[tool]
	if what == "" {
		what = "That is"
	}
	var who []string
	for _, r := range access[tool] {
		who = append(who, map[domain.Role]string{
			domain.RoleOwner: "the owners", domain.RoleAccounts: "the accounts team", domain.RoleSales: "the sales staff",
		}[r])
	}
	if len(who) == 0 {
		return fmt.Sprintf("Sorry %s, that isn't something I can share.", name)
	}
	list := strings.Join(who, " and ")
	if len(who) > 2 {
		list = strings.Join(who[:len(who)-1], ", ") + " and " + who[len(who)-1]
	}
	return fmt.Sprintf("Sorry %s, %s only shared with %s. Please ask them if you need this. 🙏", name, strings.ToLower(what[:1])+what[1:], list)
}
