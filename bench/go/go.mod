module github.com/switchyard-dev/switchyard/bench/go

go 1.22

require github.com/valyala/fasthttp v1.58.0

require (
	github.com/andybalholm/brotli v1.1.1 // indirect
	github.com/klauspost/compress v1.17.11 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
)
