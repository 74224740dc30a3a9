package round

// Half rounds cents to the nearest 100, halves up.
func Half(cents int) int {
	return (cents + 50) / 100 * 100
}

// Down is not used by the failing code.
func Down(cents int) int { return cents / 100 * 100 }
