# The image of workbook for the engines that grade a class in slices (docs/grading.md, "A container
# image"): a Kubernetes Indexed Job, a CI matrix. `workbook grade` builds every student's program
# with the go command, so the image is Go's own (the toolchain go.mod names) with workbook in
# /usr/local/bin, run as an ordinary user. Build it from a clone:
#
#	docker build -t workbook .
#	docker run --rm workbook workbook grade --help
#
# image_test.go builds what this file builds, the same way, and runs the documented recipes with it;
# .ci/run builds the image itself where a container engine is at hand.

ARG GO_VERSION=1.26

FROM golang:${GO_VERSION} AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -o /out/workbook ./cmd/workbook

FROM golang:${GO_VERSION}
COPY --from=build /out/workbook /usr/local/bin/workbook
# An ordinary user: the sandbox needs no privilege (docs/grading.md says what each protection needs),
# and a learner's program never runs as root. Its home holds the Go build cache; mount a volume
# there (or set GOCACHE) to share it between pods.
RUN useradd --uid 10001 --user-group --create-home --home-dir /home/workbook workbook
USER 10001:10001
WORKDIR /home/workbook
# The toolchain of the image builds the students' programs: never one downloaded at run time.
ENV GOTOOLCHAIN=local
CMD ["workbook", "help"]
