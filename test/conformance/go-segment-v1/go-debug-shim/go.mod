// Stand-in for github.com/visionmedia/go-debug, which analytics-go v1.2.0
// imports but which the module proxy cannot serve. It keeps the one function
// v1.2.0 calls, Debug(name), enabled by DEBUG=<name> as the original was.
module github.com/visionmedia/go-debug

go 1.22
