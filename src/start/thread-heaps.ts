// V8's heap flags on the command line (`npm start` and the Docker image give
// --max-old-space-size and --max-semi-space-size, for the main thread's sake) are process-wide,
// and V8 lets them override a Worker's `resourceLimits`: under them every thread — the parsing
// threads that contain hostile files, the HTTP lane, the address threads — ran with the main
// thread's 1 GB old generation and 32 MB of new space, whatever its own limits said (a thread
// bounded at 32 MB kept allocating past 600 MB: thread-heaps.test.ts). Each isolate takes its
// sizes when it is created, so clearing the flags once the main thread runs leaves the main
// thread as the command line set it and lets every thread created afterwards take its own limits.
import v8 from 'node:v8';

/** The flags that override a Worker's resourceLimits (V8's Heap::ConfigureHeap); 0 is "not given". */
const HEAP_FLAGS = ['--max-old-space-size', '--max-semi-space-size', '--max-heap-size'] as const;

/** Lets threads created from now on be sized by their own resourceLimits. */
export function letThreadsTakeTheirOwnHeapLimits(): void {
  for (const flag of HEAP_FLAGS) v8.setFlagsFromString(`${flag}=0`);
}
