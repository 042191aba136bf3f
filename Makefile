# Quick start: `make run` and `make test` set up what is missing, build, and run.
BUILD ?= build
JOBS ?= 2
APT_PKGS = cmake pkg-config llvm-19-dev libjansson-dev libcmocka-dev libzstd-dev clang python3-venv
SUDO = $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build run test clean format

all: build

# Install only what is missing (Debian 12). ptxas comes from the CUDA toolkit in /usr/local/cuda.
deps:
	@missing=""; \
	command -v cmake >/dev/null || missing="$$missing cmake"; \
	command -v pkg-config >/dev/null || missing="$$missing pkg-config"; \
	command -v llvm-config-19 >/dev/null || missing="$$missing llvm-19-dev"; \
	pkg-config --exists jansson 2>/dev/null || missing="$$missing libjansson-dev"; \
	pkg-config --exists cmocka 2>/dev/null || missing="$$missing libcmocka-dev"; \
	[ -e /usr/include/zstd.h ] || missing="$$missing libzstd-dev"; \
	command -v clang >/dev/null || missing="$$missing clang"; \
	python3 -c 'import ensurepip, venv' 2>/dev/null || missing="$$missing python3 python3-venv"; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	@command -v ptxas >/dev/null || [ -x /usr/local/cuda/bin/ptxas ] || \
		{ echo "error: ptxas not found (install the CUDA toolkit into /usr/local/cuda)"; exit 1; }
	@command -v nvdisasm >/dev/null || [ -x /usr/local/cuda/bin/nvdisasm ] || \
		[ -x $(BUILD)/nvdisasm/nvdisasm ] || { \
		echo "fetching nvdisasm (the SASS test, codegen_sass_waits)"; \
		mkdir -p $(BUILD)/nvdisasm/whl && \
		python3 -m pip download -q --no-cache-dir --no-deps -d $(BUILD)/nvdisasm/whl \
			'nvidia-cuda-nvdisasm>=13,<14' && \
		python3 -m zipfile -e $(BUILD)/nvdisasm/whl/nvidia_cuda_nvdisasm-*.whl $(BUILD)/nvdisasm/whl && \
		cp $$(find $(BUILD)/nvdisasm/whl -name nvdisasm -type f) $(BUILD)/nvdisasm/nvdisasm && \
		chmod +x $(BUILD)/nvdisasm/nvdisasm && rm -rf $(BUILD)/nvdisasm/whl; } || \
		echo "warning: no nvdisasm; codegen_sass_waits will not run"

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Debug -DRKC_SANITIZE=ON >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/rkc table
	@sh bench/table_run.sh ./$(BUILD)/rkc

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD)
