package present

// Plural picks the word for n things.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
