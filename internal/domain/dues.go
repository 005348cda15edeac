package domain

// Dues writes a customer's outstanding as people read it: "₹80,000" owed,
// "₹0" settled, and "₹0, advance ₹80,000" when they have paid more than
// they owed. The books keep such an advance as a negative outstanding; a
// person never reads a minus sign on what a customer owes.
func Dues(outstanding Paise) string {
	if outstanding < 0 {
		return "₹0, advance " + (-outstanding).String()
	}
	return outstanding.String()
}
