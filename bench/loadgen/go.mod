module github.com/switchyard-dev/switchyard/bench/loadgen

go 1.22
