package sweep

// InputError marks an error the user can fix, such as a grid of more runs than a sweep allows
// or a runs file to resume from that is not one, so that the command line exits 2 (bad input)
// rather than 1. Its message is the wrapped error's.
type InputError struct{ Err error }

func (e InputError) Error() string { return e.Err.Error() }
func (e InputError) Unwrap() error { return e.Err }
