// Exercises the sanitizers: no argument runs clean code (exit 0); "heap-overflow" reads one
// element past a heap array (ASan must stop it); "signed-overflow" overflows an int (UBSan
// must stop it).
#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  volatile int index = 8;
  std::vector<int>* values = new std::vector<int>(8, 1);
  int sum = 0;
  for (int v : *values) sum += v;
  if (argc > 1 && std::strcmp(argv[1], "heap-overflow") == 0) sum += values->data()[index];
  if (argc > 1 && std::strcmp(argv[1], "signed-overflow") == 0) {
    volatile int big = 0x7fffffff;
    sum += big + index;
  }
  delete values;
  std::printf("sum %d\n", sum);
  return 0;
}
