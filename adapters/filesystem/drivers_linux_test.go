package filesystem

// testDrivers are the directory drivers of this system: the descriptor
// driver it uses, and os.Root, which the others use.
var testDrivers = []driver{{"fd", openFDHandle}, {"root", openRootHandle}}
