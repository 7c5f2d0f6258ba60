// Linked by runtime_libraries (runtime_libraries.bzl) exactly as the toolchain links the SDK's
// static programs, to trace which C and C++ runtime files such a link takes (the SBOM's
// relationships of bin/*). It uses what the programs use: iostream, strings, threads, libm.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <thread>

int main(int argc, char** argv) {
  std::string text = argc > 1 ? argv[1] : "probe";
  double value = 0.0;
  std::thread worker([&] { value = std::sqrt(static_cast<double>(text.size())); });
  worker.join();
  std::cout << text << ' ' << value << std::endl;
  std::printf("%s\n", text.c_str());
  return 0;
}
