// Without libFuzzer (the normal and ASan builds), a harness is linked with this
// main and replays its seed corpus and the regression inputs once: every file
// under the directories given, so every crash found by fuzzing stays fixed in
// every build (tests/fuzz/regressions/<harness>/, docs/reliability.md).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);

int main(int argc, char **argv)
{
    namespace fs = std::filesystem;
    std::size_t runs = 0;
    for (int a = 1; a < argc; ++a) {
        std::vector<fs::path> files;
        std::error_code ec;
        if (fs::is_regular_file(argv[a], ec)) {
            files.emplace_back(argv[a]);
        } else if (fs::is_directory(argv[a], ec)) {
            for (const auto &entry : fs::recursive_directory_iterator(argv[a], ec)) {
                if (entry.is_regular_file() && entry.file_size() <= 4'000'000)
                    files.push_back(entry.path());
            }
        } else {
            std::fprintf(stderr, "%s: no such file or folder\n", argv[a]);
            return 2;
        }
        for (const fs::path &file : files) {
            std::ifstream in(file, std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size());
            ++runs;
        }
    }
    std::printf("replayed %zu inputs\n", runs);
    return runs > 0 ? 0 : 1;
}
