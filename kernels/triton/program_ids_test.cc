// program_ids.ttir: the launcher runs every program of a grid exactly once with its own ids,
// however the grid splits into ranges of program ids across the pool's threads (each range one
// call of the kernel's range entry, its ids carried from x into y and z at the grid's edges),
// and the kernel's own symbol runs the one program it is given.
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/triton/program_ids.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

struct Grid {
  int32_t x, y, z;
};

int32_t Ids(int32_t x, int32_t y, int32_t z) { return x + 1000 * y + 1000000 * z; }

class ProgramIdsTest : public ::testing::Test {
 protected:
  void SetUp() override { threads_ = tcpu_get_num_threads(); }
  void TearDown() override { tcpu_set_num_threads(threads_); }

 private:
  int threads_ = 1;
};

TEST_F(ProgramIdsTest, EveryProgramOfTheGridRunsOnceWithItsIds) {
  const Grid grids[] = {{1, 1, 1}, {7, 1, 1}, {1, 5, 1}, {1, 1, 4},
                        {5, 3, 2}, {3, 4, 5}, {2, 2, 7}, {13, 1, 3}};
  for (int threads : {1, 2, 3, 4}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (const Grid& grid : grids) {
      SCOPED_TRACE(std::to_string(threads) + " threads, grid " + std::to_string(grid.x) + "x" +
                   std::to_string(grid.y) + "x" + std::to_string(grid.z));
      const int32_t programs = grid.x * grid.y * grid.z;
      std::vector<int32_t> out(programs, -1), visits(programs, 0);
      ASSERT_EQ(tcpu_launch_program_ids_kernel(out.data(), visits.data(), grid.x, grid.y, grid.z),
                TCPU_OK)
          << tcpu_last_error_detail();
      for (int32_t z = 0; z < grid.z; ++z) {
        for (int32_t y = 0; y < grid.y; ++y) {
          for (int32_t x = 0; x < grid.x; ++x) {
            const int32_t id = x + grid.x * (y + grid.y * z);
            EXPECT_EQ(out[id], Ids(x, y, z)) << "program " << x << ", " << y << ", " << z;
            EXPECT_EQ(visits[id], 1) << "program " << x << ", " << y << ", " << z;
          }
        }
      }
    }
  }
}

TEST_F(ProgramIdsTest, TheKernelSymbolRunsTheOneProgramItIsGiven) {
  // triton-cpu's entry: program (2, 1, 0) of a 3x2x1 grid, id 5; no other program runs.
  std::vector<int32_t> out(6, -1), visits(6, 0);
  program_ids_kernel(out.data(), visits.data(), 2, 1, 0, 3, 2, 1);
  for (int32_t id = 0; id < 6; ++id) {
    EXPECT_EQ(visits[id], id == 5 ? 1 : 0) << "id " << id;
    EXPECT_EQ(out[id], id == 5 ? Ids(2, 1, 0) : -1) << "id " << id;
  }
}

TEST_F(ProgramIdsTest, AnEmptyGridDimensionIsRefusedBeforeAnyProgramRuns) {
  std::vector<int32_t> out(4, -1), visits(4, 0);
  EXPECT_EQ(tcpu_launch_program_ids_kernel(out.data(), visits.data(), 2, 0, 2),
            TCPU_ERR_INVALID_SIZE);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("grid_y = 0"), std::string::npos)
      << tcpu_last_error_detail();
  EXPECT_EQ(visits, std::vector<int32_t>(4, 0));
}

}  // namespace
