# The image of workbook for the engines that grade a class in slices (docs/grading.md, "A container
# image"): a Kubernetes Indexed Job, a CI matrix. `workbook grade` builds every student's program
# with the go command, so the image holds Go's toolchain of the version go.mod names, workbook in
# /usr/local/bin, a shell for the recipes' commands and an ordinary user, and nothing else: every
# program in it is statically linked. With an engine, from a clone:
#
#	docker build -t workbook .
#	docker run --rm workbook workbook grade --help
#
# Without one, internal/ociimage builds the same image (go run ./internal/ociimage/mkimage DIR, an
# OCI layout), from this machine's toolchain and Debian's busybox-static; its test checks that this
# file and it agree (stages, paths, user, environment), and .ci/run builds it and runs the
# documented recipes inside it.

ARG GO_VERSION=1.26

FROM golang:${GO_VERSION} AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -o /out/workbook ./cmd/workbook
# The user workbook (uid and gid 10001), its home and /tmp with the sticky bit.
RUN mkdir -p /out/root/etc /out/root/home/workbook /out/root/root /out/root/tmp && \
    printf 'root:x:0:0:root:/root:/sbin/nologin\nworkbook:x:10001:10001:workbook:/home/workbook:/bin/sh\n' >/out/root/etc/passwd && \
    printf 'root:x:0:\nworkbook:x:10001:\n' >/out/root/etc/group && \
    chmod 0700 /out/root/root && chmod 1777 /out/root/tmp

# A statically linked shell: the recipes' commands are shell commands.
FROM busybox:1.36-musl AS shell

FROM scratch
COPY --from=build /usr/local/go /usr/local/go
COPY --from=build /out/workbook /usr/local/bin/workbook
COPY --from=shell /bin/busybox /bin/sh
COPY --from=build /out/root/ /
COPY --from=build --chown=10001:10001 /out/root/home/workbook /home/workbook
# An ordinary user: the sandbox needs no privilege (docs/grading.md says what each protection needs),
# and a learner's program never runs as root. Its home holds the Go build cache; mount a volume
# there (or set GOCACHE) to share it between pods.
USER 10001:10001
WORKDIR /home/workbook
# The toolchain of the image builds the students' programs: never one downloaded at run time.
ENV PATH=/usr/local/bin:/usr/local/go/bin:/usr/bin:/bin
ENV GOTOOLCHAIN=local
CMD ["workbook", "help"]
