// Package queue runs trawl's batch jobs on a NATS JetStream work queue, so that any
// number of worker processes on any number of machines share one batch.
//
// A batch enqueues one message per job on the stream TRAWL_JOBS (subject
// trawl.jobs.<batch>), de-duplicated by the job's key (JetStream's Nats-Msg-Id), and
// keeps the state of every job in the key-value bucket trawl_status. Workers pull
// from one durable consumer per batch, run each job through a Runner, tell the server
// that the job is in progress every AckWait/4, and acknowledge it only after the
// runner returned (the run directory is complete). A worker that dies stops its
// heartbeats: the server redelivers its job after AckWait to another worker, which
// resumes the run directory where it stopped.
//
// Politeness holds across workers: a job runs only while its worker holds one of the
// OriginLimit leases of the job's origin in the bucket trawl_leases (compare-and-set
// on the key's revision, renewed with the heartbeats, expired after AckWait), and a
// lease taken after another job of the origin ended waits the job's delay after that
// end.
//
// Without a server URL, Open starts an embedded NATS server with JetStream in the
// process (github.com/nats-io/nats-server/v2, a file store under the batch's output
// directory), so one machine needs nothing else. Results stay in the workers' output
// directory (a shared filesystem) or go to the object store bucket trawl_results, from
// which Collect fetches them.
//
// Reference: NATS JetStream documentation (work-queue retention, message
// de-duplication, AckWait and in-progress acknowledgements, key-value buckets).
package queue
