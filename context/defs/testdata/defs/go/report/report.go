package report

// Total has the same name as shop.Total but lives in another package.
func Total() string { return "report" }
