/* A QEMU TCG plugin (qemu-user 7.2, plugin API 1) counting the guest instructions a program
 * executes, per symbol of its ELF symbol table and per region between the runtime's
 * tcpu_perf_region_begin(name) and tcpu_perf_region_end(name) (runtime/include/tcpu/perf.h).
 *
 *   qemu-aarch64 -plugin libcount_plugin.so,out=counts.json -cpu max ./program
 *
 * Counting: when a translation block is translated, its instructions are split into runs of
 * one symbol; when it executes, one callback adds each run's length to that symbol and the
 * block's length to the executing vCPU's total. Symbol counts are atomic, so they are exact
 * with guest threads too; a region counts the instructions of the thread that opened it.
 *
 * Regions: the two marker functions each hold one byte load of name[0]. A memory callback on
 * that load receives the guest address of the name; in user mode guest memory is host memory
 * at a fixed offset, which the plugin learns from any instruction (host minus guest address).
 *
 * Parallel balance: the thread pool marks each parallel region on its calling thread
 * (TCPU_PERF_PARALLEL_REGION) and each worker's share of it (TCPU_PERF_PARALLEL_SHARE_REGION;
 * runtime/include/tcpu/perf.h). The shares that end while a parallel region is open form its
 * group; when the region ends, the group's largest share, its mean share and its total are
 * added to every region then open on the calling thread (the parallel region's own name
 * included). A region's `serial` count is its thread's instructions outside the parallel
 * regions it enclosed (those are the caller's wait). The pool runs one parallel region at a
 * time; shares outside one, or two open at once, are reported as errors.
 *
 * Blocks (argument blocks=on): every translated block's guest address, length, symbol (of its
 * first instruction) and executions, so that count.py --blocks can say where in a function the
 * instructions go. A block translated again (same address and length) adds to the same row.
 *
 * At exit the counts are written as JSON to `out` (stderr without it); tools/perf/count.py
 * prints them. Errors (an end without its begin, a region left open) are listed in the JSON.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <qemu-plugin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum {
  kMaxSymbols = 1 << 16,  /* distinct symbols counted (more share the "(other)" row) */
  kSymbolSlots = 1 << 17, /* open-addressing table of the symbol names */
  kMaxRegions = 4096,     /* distinct region names */
  kMaxVcpus = 256,        /* guest threads */
  kMaxDepth = 64,         /* nesting of regions per thread */
  kMaxErrors = 32,
  kMaxNameBytes = 256,
};

static const char kBeginSymbol[] = "tcpu_perf_region_begin";
static const char kEndSymbol[] = "tcpu_perf_region_end";
/* The thread pool's markers, TCPU_PERF_PARALLEL_REGION and TCPU_PERF_PARALLEL_SHARE_REGION. */
static const char kParallelRegion[] = "tcpu.parallel_for";
static const char kShareRegion[] = "tcpu.parallel_for.share";

/* Symbols: names interned at translation time (serialised by `lock`), counts added atomically
 * at execution time. Symbol 0 is instructions outside any symbol. */
static const char* symbol_names[kMaxSymbols];
static uint64_t symbol_counts[kMaxSymbols];
static int symbol_slots[kSymbolSlots]; /* symbol id + 1, 0 = empty */
static int n_symbols = 1;
static int symbols_overflowed;

struct Region {
  char* name;
  uint64_t calls;
  uint64_t instructions;
  uint64_t min;
  uint64_t max;
  /* Parallel regions run inside this one (see the header comment). */
  uint64_t groups;      /* parallel regions with at least one share */
  uint64_t shares;      /* worker shares in them */
  uint64_t busiest;     /* sum over groups of the largest share */
  double mean;          /* sum over groups of the mean share */
  uint64_t work;        /* sum of all shares */
  uint64_t serial;      /* the opener's instructions outside enclosed parallel regions */
};
static struct Region regions[kMaxRegions];
static int n_regions;

struct OpenRegion {
  int region;
  uint64_t start;
  uint64_t in_parallel; /* the thread's instructions inside enclosed parallel regions */
};
struct Vcpu {
  uint64_t total; /* written only by its own thread */
  int depth;
  struct OpenRegion open[kMaxDepth];
};
static struct Vcpu vcpus[kMaxVcpus];

static char* errors[kMaxErrors];
static int n_errors;

/* The open parallel region's group of shares (one at a time; owner -1: none open). */
static int parallel_owner = -1;
static uint64_t group_shares, group_busiest, group_work;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static intptr_t guest_to_host; /* host address - guest address of guest memory */
static int guest_to_host_known;
static const char* out_path;

/* One translated block: its address, length, executions (with blocks=on) and its runs of
 * instructions of one symbol. */
struct Run {
  int symbol;
  uint32_t length;
};
struct Block {
  uint64_t vaddr;
  uint64_t executions;
  uint32_t length;
  uint32_t n_runs;
  struct Run runs[];
};

/* With blocks=on, every block translated (serialised by `lock`). */
static int record_blocks;
static struct Block** blocks;
static size_t n_blocks, blocks_capacity;

enum MarkerKind { kBegin = 1, kEnd = 2 };

static void AddError(const char* format, ...) __attribute__((format(printf, 1, 2)));
static void AddError(const char* format, ...) {
  /* Called with `lock` held. */
  if (n_errors == kMaxErrors) return;
  char buffer[512];
  va_list args;
  va_start(args, format);
  vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  errors[n_errors++] = strdup(buffer);
}

static uint64_t HashString(const char* s) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (; *s != '\0'; ++s) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* The id of symbol `name` (NULL: outside any symbol), interning it. Called with `lock` held. */
static int SymbolId(const char* name) {
  if (name == NULL) return 0;
  uint64_t slot = HashString(name) & (kSymbolSlots - 1);
  for (;;) {
    const int id = symbol_slots[slot] - 1;
    if (id < 0) break;
    if (strcmp(symbol_names[id], name) == 0) return id;
    slot = (slot + 1) & (kSymbolSlots - 1);
  }
  if (n_symbols == kMaxSymbols) {
    symbols_overflowed = 1;
    return 0;
  }
  const int id = n_symbols++;
  symbol_names[id] = strdup(name);
  symbol_slots[slot] = id + 1;
  return id;
}

/* The id of region `name`, interning it. Called with `lock` held; -1 when the table is full. */
static int RegionId(const char* name) {
  for (int i = 0; i < n_regions; ++i) {
    if (strcmp(regions[i].name, name) == 0) return i;
  }
  if (n_regions == kMaxRegions) return -1;
  regions[n_regions].name = strdup(name);
  regions[n_regions].min = UINT64_MAX;
  return n_regions++;
}

static void BlockExecuted(unsigned int vcpu_index, void* userdata) {
  const struct Block* block = userdata;
  for (uint32_t i = 0; i < block->n_runs; ++i) {
    __atomic_fetch_add(&symbol_counts[block->runs[i].symbol], block->runs[i].length,
                       __ATOMIC_RELAXED);
  }
  if (vcpu_index < kMaxVcpus) vcpus[vcpu_index].total += block->length;
  if (record_blocks) {
    __atomic_fetch_add(&((struct Block*)userdata)->executions, 1, __ATOMIC_RELAXED);
  }
}

/* Copies the NUL-terminated guest string at `guest_address` (at most kMaxNameBytes - 1 bytes). */
static void ReadGuestString(uint64_t guest_address, char* out) {
  const char* host = (const char*)(intptr_t)(guest_address + guest_to_host);
  size_t i = 0;
  for (; i + 1 < kMaxNameBytes && host[i] != '\0'; ++i) out[i] = host[i];
  out[i] = '\0';
}

/* The parallel-balance bookkeeping of MarkerLoad; all called with `lock` held. */
static void ParallelBegun(unsigned int vcpu_index) {
  if (parallel_owner >= 0) {
    AddError("guest thread %u began a parallel region while guest thread %d's was open",
             vcpu_index, parallel_owner);
    return;
  }
  parallel_owner = (int)vcpu_index;
  group_shares = group_busiest = group_work = 0;
}

static void ShareEnded(unsigned int vcpu_index, uint64_t count) {
  if (parallel_owner < 0) {
    AddError("guest thread %u ended a share of a parallel region while none was open",
             vcpu_index);
    return;
  }
  ++group_shares;
  group_work += count;
  if (count > group_busiest) group_busiest = count;
}

/* The parallel region `region` of `vcpu_index` (already popped) ended after `count`
 * instructions of its thread: its group goes to every region still open on that thread and to
 * the parallel region itself; its instructions (the wait) are no region's serial work. */
static void ParallelEnded(unsigned int vcpu_index, uint64_t count, int region) {
  if (parallel_owner != (int)vcpu_index) return; /* reported when it began */
  struct Vcpu* vcpu = &vcpus[vcpu_index];
  for (int d = 0; d <= vcpu->depth; ++d) {
    struct Region* r = &regions[d < vcpu->depth ? vcpu->open[d].region : region];
    if (d < vcpu->depth) vcpu->open[d].in_parallel += count;
    if (group_shares == 0) continue;
    ++r->groups;
    r->shares += group_shares;
    r->busiest += group_busiest;
    r->mean += (double)group_work / (double)group_shares;
    r->work += group_work;
  }
  parallel_owner = -1;
}

static void MarkerLoad(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr,
                       void* userdata) {
  if (qemu_plugin_mem_is_store(info)) return;
  const enum MarkerKind kind = (enum MarkerKind)(intptr_t)userdata;
  pthread_mutex_lock(&lock);
  if (vcpu_index >= kMaxVcpus) {
    AddError("guest thread %u: more than %d threads, its regions are not counted", vcpu_index,
             kMaxVcpus);
    pthread_mutex_unlock(&lock);
    return;
  }
  char name[kMaxNameBytes];
  ReadGuestString(vaddr, name);
  struct Vcpu* vcpu = &vcpus[vcpu_index];
  const int region = RegionId(name);
  if (region < 0) {
    AddError("region '%s': more than %d distinct region names", name, kMaxRegions);
  } else if (kind == kBegin) {
    if (vcpu->depth == kMaxDepth) {
      AddError("region '%s': nested more than %d deep", name, kMaxDepth);
    } else {
      vcpu->open[vcpu->depth].region = region;
      vcpu->open[vcpu->depth].start = vcpu->total;
      vcpu->open[vcpu->depth].in_parallel = 0;
      ++vcpu->depth;
      if (strcmp(name, kParallelRegion) == 0) ParallelBegun(vcpu_index);
    }
  } else if (vcpu->depth == 0 || vcpu->open[vcpu->depth - 1].region != region) {
    AddError("tcpu_perf_region_end(\"%s\") on guest thread %u: the innermost open region is %s%s%s",
             name, vcpu_index, vcpu->depth ? "'" : "",
             vcpu->depth ? regions[vcpu->open[vcpu->depth - 1].region].name : "none",
             vcpu->depth ? "'" : "");
  } else {
    --vcpu->depth;
    const uint64_t count = vcpu->total - vcpu->open[vcpu->depth].start;
    struct Region* r = &regions[region];
    ++r->calls;
    r->instructions += count;
    if (count < r->min) r->min = count;
    if (count > r->max) r->max = count;
    if (strcmp(name, kParallelRegion) == 0) {
      ParallelEnded(vcpu_index, count, region);
    } else {
      r->serial += count - vcpu->open[vcpu->depth].in_parallel;
      if (strcmp(name, kShareRegion) == 0) ShareEnded(vcpu_index, count);
    }
  }
  pthread_mutex_unlock(&lock);
}

static void BlockTranslated(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
  (void)id;
  const size_t n = qemu_plugin_tb_n_insns(tb);
  if (n == 0) return;
  pthread_mutex_lock(&lock);
  struct Block* block = calloc(1, sizeof(struct Block) + n * sizeof(struct Run));
  if (block == NULL) {
    AddError("out of memory instrumenting a block of %zu instructions", n);
    pthread_mutex_unlock(&lock);
    return;
  }
  block->length = (uint32_t)n;
  block->vaddr = qemu_plugin_tb_vaddr(tb);
  if (record_blocks) {
    if (n_blocks == blocks_capacity) {
      const size_t capacity = blocks_capacity ? 2 * blocks_capacity : 4096;
      struct Block** grown = realloc(blocks, capacity * sizeof(struct Block*));
      if (grown == NULL) {
        AddError("out of memory listing blocks: blocks=on stops at %zu", n_blocks);
        record_blocks = 0;
      } else {
        blocks = grown;
        blocks_capacity = capacity;
      }
    }
    if (record_blocks) blocks[n_blocks++] = block;
  }
  for (size_t i = 0; i < n; ++i) {
    struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
    if (!guest_to_host_known && qemu_plugin_insn_haddr(insn) != NULL) {
      guest_to_host = (intptr_t)qemu_plugin_insn_haddr(insn) - (intptr_t)qemu_plugin_insn_vaddr(insn);
      guest_to_host_known = 1;
    }
    const char* symbol = qemu_plugin_insn_symbol(insn);
    const int symbol_id = SymbolId(symbol);
    if (block->n_runs > 0 && block->runs[block->n_runs - 1].symbol == symbol_id) {
      ++block->runs[block->n_runs - 1].length;
    } else {
      block->runs[block->n_runs].symbol = symbol_id;
      block->runs[block->n_runs].length = 1;
      ++block->n_runs;
    }
    if (symbol != NULL && (strcmp(symbol, kBeginSymbol) == 0 || strcmp(symbol, kEndSymbol) == 0)) {
      const enum MarkerKind kind = strcmp(symbol, kBeginSymbol) == 0 ? kBegin : kEnd;
      /* QEMU_PLUGIN_MEM_RW: qemu 7.2 never calls a callback registered for QEMU_PLUGIN_MEM_R
       * alone (measured); MarkerLoad skips stores itself. */
      qemu_plugin_register_vcpu_mem_cb(insn, MarkerLoad, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
                                       (void*)(intptr_t)kind);
    }
  }
  pthread_mutex_unlock(&lock);
  qemu_plugin_register_vcpu_tb_exec_cb(tb, BlockExecuted, QEMU_PLUGIN_CB_NO_REGS, block);
}

static void WriteJsonString(FILE* f, const char* s) {
  fputc('"', f);
  for (; *s != '\0'; ++s) {
    const unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      fprintf(f, "\\%c", c);
    } else if (c < 0x20) {
      fprintf(f, "\\u%04x", c);
    } else {
      fputc(c, f);
    }
  }
  fputc('"', f);
}

static int CompareSymbolsByCount(const void* a, const void* b) {
  const uint64_t ca = symbol_counts[*(const int*)a], cb = symbol_counts[*(const int*)b];
  if (ca != cb) return ca < cb ? 1 : -1;
  return *(const int*)a - *(const int*)b;
}

static int CompareBlocksByAddress(const void* a, const void* b) {
  const struct Block* x = *(struct Block* const*)a;
  const struct Block* y = *(struct Block* const*)b;
  if (x->vaddr != y->vaddr) return x->vaddr < y->vaddr ? -1 : 1;
  return x->length < y->length ? -1 : x->length > y->length;
}

static uint64_t BlockInstructions(const struct Block* block) {
  return block->executions * block->length;
}

static int CompareBlocksByInstructions(const void* a, const void* b) {
  const uint64_t x = BlockInstructions(*(struct Block* const*)a);
  const uint64_t y = BlockInstructions(*(struct Block* const*)b);
  if (x != y) return x < y ? 1 : -1;
  return CompareBlocksByAddress(a, b);
}

/* The executed blocks, most instructions first; translations of one block (address and length)
 * summed into the first. Called with `lock` held. */
static void WriteBlocks(FILE* f) {
  qsort(blocks, n_blocks, sizeof(struct Block*), CompareBlocksByAddress);
  size_t kept = 0;
  for (size_t i = 0; i < n_blocks; ++i) {
    if (kept > 0 && blocks[kept - 1]->vaddr == blocks[i]->vaddr &&
        blocks[kept - 1]->length == blocks[i]->length) {
      blocks[kept - 1]->executions += blocks[i]->executions;
    } else if (blocks[i]->executions > 0) {
      blocks[kept++] = blocks[i];
    }
  }
  qsort(blocks, kept, sizeof(struct Block*), CompareBlocksByInstructions);
  fprintf(f, ",\n  \"blocks\": [");
  for (size_t i = 0; i < kept; ++i) {
    const struct Block* block = blocks[i];
    const int symbol = block->runs[0].symbol;
    fprintf(f, "%s\n    {\"address\": %" PRIu64 ", \"length\": %" PRIu32
            ", \"executions\": %" PRIu64 ", \"symbol\": ",
            i ? "," : "", block->vaddr, block->length, block->executions);
    WriteJsonString(f, symbol == 0 ? "" : symbol_names[symbol]);
    fputc('}', f);
  }
  fprintf(f, "\n  ]");
}

static void WriteCounts(qemu_plugin_id_t id, void* userdata) {
  (void)id;
  (void)userdata;
  pthread_mutex_lock(&lock);
  for (int v = 0; v < kMaxVcpus; ++v) {
    for (int d = 0; d < vcpus[v].depth; ++d) {
      AddError("region '%s' on guest thread %d was never ended", regions[vcpus[v].open[d].region].name,
               v);
    }
  }
  if (symbols_overflowed) AddError("more than %d symbols: the rest count as (other)", kMaxSymbols);
  FILE* f = stderr;
  if (out_path != NULL) {
    f = fopen(out_path, "w");
    if (f == NULL) {
      fprintf(stderr, "count_plugin: cannot write %s\n", out_path);
      pthread_mutex_unlock(&lock);
      return;
    }
  }
  uint64_t total = 0;
  int* order = malloc(sizeof(int) * (size_t)n_symbols);
  for (int i = 0; i < n_symbols; ++i) {
    total += symbol_counts[i];
    if (order != NULL) order[i] = i;
  }
  fprintf(f, "{\n  \"total\": %" PRIu64 ",\n  \"symbols\": [", total);
  if (order != NULL) {
    qsort(order, (size_t)n_symbols, sizeof(int), CompareSymbolsByCount);
    const char* separator = "\n";
    for (int i = 0; i < n_symbols; ++i) {
      const int s = order[i];
      if (symbol_counts[s] == 0) continue;
      fprintf(f, "%s    {\"name\": ", separator);
      WriteJsonString(f, s == 0 ? (symbols_overflowed ? "(other)" : "(no symbol)") : symbol_names[s]);
      fprintf(f, ", \"instructions\": %" PRIu64 "}", symbol_counts[s]);
      separator = ",\n";
    }
    free(order);
  }
  fprintf(f, "\n  ],\n  \"regions\": [");
  for (int i = 0; i < n_regions; ++i) {
    const struct Region* r = &regions[i];
    fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
    WriteJsonString(f, r->name);
    fprintf(f,
            ", \"calls\": %" PRIu64 ", \"instructions\": %" PRIu64 ", \"min\": %" PRIu64
            ", \"max\": %" PRIu64,
            r->calls, r->instructions, r->calls ? r->min : 0, r->max);
    if (r->groups > 0) {
      fprintf(f,
              ",\n     \"parallel\": {\"groups\": %" PRIu64 ", \"shares\": %" PRIu64
              ", \"busiest\": %" PRIu64 ", \"mean\": %.1f, \"work\": %" PRIu64
              ", \"serial\": %" PRIu64 "}",
              r->groups, r->shares, r->busiest, r->mean, r->work, r->serial);
    }
    fputc('}', f);
  }
  fprintf(f, "\n  ],\n  \"errors\": [");
  for (int i = 0; i < n_errors; ++i) {
    fprintf(f, "%s\n    ", i ? "," : "");
    WriteJsonString(f, errors[i]);
  }
  fprintf(f, "\n  ]");
  if (record_blocks || n_blocks > 0) WriteBlocks(f);
  fprintf(f, "\n}\n");
  if (f != stderr) fclose(f);
  pthread_mutex_unlock(&lock);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t* info, int argc,
                                           char** argv) {
  if (info->system_emulation) {
    fprintf(stderr, "count_plugin: user-mode emulation only (qemu-aarch64), not qemu-system\n");
    return -1;
  }
  for (int i = 0; i < argc; ++i) {
    if (strncmp(argv[i], "out=", 4) == 0) {
      out_path = argv[i] + 4;
    } else if (strcmp(argv[i], "blocks=on") == 0) {
      record_blocks = 1;
    } else {
      fprintf(stderr, "count_plugin: unknown argument '%s' (expected out=FILE or blocks=on)\n",
              argv[i]);
      return -1;
    }
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, BlockTranslated);
  qemu_plugin_register_atexit_cb(id, WriteCounts, NULL);
  return 0;
}
