module switchyard-conformance/go-segment-v1

go 1.22

// analytics-go v1.2.0 imports github.com/visionmedia/go-debug, which the
// module proxy cannot serve; a local stand-in keeps the library unmodified.
replace github.com/visionmedia/go-debug => ./go-debug-shim

require (
	github.com/segmentio/analytics-go v1.2.0
	github.com/visionmedia/go-debug v0.0.0-00010101000000-000000000000 // indirect
)

require (
	github.com/jehiah/go-strftime v0.0.0-20171201141054-1d33003b3869 // indirect
	github.com/xtgo/uuid v0.0.0-20140804021211-a0b114877d4c // indirect
)
