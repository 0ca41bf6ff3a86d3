module github.com/switchyard-dev/switchyard/clients/go

go 1.22
