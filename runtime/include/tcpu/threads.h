/* The runtime's thread pool: persistent workers, static partitioning, a spinning barrier.
 *
 * By default it uses the fastest cluster of the CPUs this process may run on (from sysfs
 * cpu_capacity, else cpuinfo_max_freq, else the MIDR part number), one worker per core,
 * each pinned: little cores never stall the barrier of a big.LITTLE SoC.
 *   TCPU_NUM_THREADS=N   use N threads (on the chosen CPUs, round-robin)
 *   TCPU_CPUS=0,1,6-7    use exactly these CPUs (one thread each unless TCPU_NUM_THREADS)
 */
#ifndef TCPU_THREADS_H_
#define TCPU_THREADS_H_

#ifdef __cplusplus
extern "C" {
#endif

/* Sets the number of threads kernels use (1..1024). Fewer than the pool has started keeps
 * them (the first num_threads take the work, on the same CPUs); more restarts the pool with
 * a new placement (TCPU_CPUS read again). Not to be called while a kernel runs on another
 * thread. */
int tcpu_set_num_threads(int num_threads);

/* The number of threads kernels use (starts the pool if needed); <0 is a tcpu_status. */
int tcpu_get_num_threads(void);

/* Writes up to `capacity` CPU ids the workers are pinned to (thread i on cpus[i]) and
 * returns how many there are, or a negative tcpu_status. -1 entries: not pinned. */
int tcpu_get_thread_cpus(int* cpus, int capacity);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_THREADS_H_ */
