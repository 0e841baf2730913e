package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// ErrRelease marks a runner error that is not the job's fault (the worker lost its
// browser, or is shutting down): the job goes back to the queue at once for another
// worker instead of being marked failed.
var ErrRelease = errors.New("queue: job released")

// Runner runs one job. It calls stage with the name of each stage it starts (shown
// in the status) and returns a summary (any JSON value) once the job's output is
// complete. An error wrapping ErrRelease releases the job; any other error fails it.
// ctx ends when the worker stops or loses the queue.
type Runner func(ctx context.Context, j Job, stage func(string)) (summary any, err error)

// WorkOptions configures Work.
type WorkOptions struct {
	// Name names the worker in statuses and leases (default: host and process id).
	Name string
	// Concurrency is the number of jobs the worker runs at the same time.
	Concurrency int
	// Poll bounds one wait for a message, and so how fast Work notices that ctx ended.
	Poll time.Duration
	// StopWhenIdle makes Work return once no job came for this long (0: never; a
	// worker serves until ctx ends).
	StopWhenIdle time.Duration
}

// DefaultWorkOptions returns one job at a time, polling every 2 s.
func DefaultWorkOptions() WorkOptions {
	host, _ := os.Hostname()
	return WorkOptions{Name: fmt.Sprintf("%s-%d", host, os.Getpid()), Concurrency: 1, Poll: 2 * time.Second}
}

// Work pulls jobs of the batch and runs them with run, Concurrency at a time, until
// ctx ends (or the queue stays idle for StopWhenIdle). It returns ctx's error, or the
// error that stopped it.
func (q *Queue) Work(ctx context.Context, wo WorkOptions, run Runner) error {
	if wo.Concurrency < 1 {
		return fmt.Errorf("queue: worker concurrency must be ≥ 1, got %d", wo.Concurrency)
	}
	if wo.Poll <= 0 {
		wo.Poll = 2 * time.Second
	}
	cons, err := q.js.Consumer(ctx, JobsStream, q.consumerName())
	if err != nil {
		return fmt.Errorf("queue: the consumer of batch %s: %w", q.o.Batch, err)
	}
	var (
		mu       sync.Mutex
		lastJob  = time.Now()
		firstErr error
		wg       sync.WaitGroup
	)
	for slot := range wo.Concurrency {
		wg.Go(func() {
			name := wo.Name
			if wo.Concurrency > 1 {
				name = fmt.Sprintf("%s/%d", wo.Name, slot)
			}
			for ctx.Err() == nil {
				msg, err := cons.Next(jetstream.FetchMaxWait(wo.Poll))
				if errors.Is(err, nats.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) {
					mu.Lock()
					idle := wo.StopWhenIdle > 0 && time.Since(lastJob) > wo.StopWhenIdle
					mu.Unlock()
					if idle {
						return
					}
					continue
				}
				if err != nil {
					if ctx.Err() != nil {
						return
					}
					// A lost connection is retried: the client reconnects by itself.
					q.log.Warn("queue: fetch a job", "err", err)
					select {
					case <-time.After(wo.Poll):
					case <-ctx.Done():
					}
					continue
				}
				ran, err := q.handle(ctx, name, msg, run)
				if ran {
					mu.Lock()
					lastJob = time.Now()
					mu.Unlock()
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					q.log.Error("queue: worker stops", "worker", name, "err", err)
					return
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// retryDelay is how long a job waits in the queue when its origin is busy.
const retryDelay = 500 * time.Millisecond

// handle runs one delivered job. It reports whether the job was run (or taken, even
// if it failed); the error is one that must stop the worker (none so far: problems of
// one job or of the connection leave the job to redelivery).
func (q *Queue) handle(ctx context.Context, worker string, msg jetstream.Msg, run Runner) (bool, error) {
	jr, taken := q.take(ctx, worker, msg)
	if jr == nil {
		return taken, nil
	}
	if err := msg.InProgress(); err != nil {
		jr.log.Warn("queue: in-progress", "err", err)
	}
	if jr.wait > 0 {
		jr.log.Debug("queue: waiting the origin's delay", "wait", jr.wait)
		select {
		case <-time.After(jr.wait):
		case <-ctx.Done():
		}
	}
	jr.log.Info("queue: job started", "url", jr.job.URL, "attempt", jr.st.Attempts)

	jctx, cancelJob := context.WithCancelCause(ctx)
	defer cancelJob(nil)
	hbDone := make(chan struct{})
	var hbWG sync.WaitGroup
	hbWG.Go(func() { jr.heartbeats(jctx, cancelJob, hbDone) })
	start := time.Now()
	sum, runErr := run(jctx, jr.job, jr.setStage)
	close(hbDone)
	hbWG.Wait()
	if cause := context.Cause(jctx); errors.Is(cause, ErrRelease) {
		runErr = cause
	}
	jr.end(ctx, start, sum, runErr)
	return true, nil
}

// jobRun is a job this worker took: its message, status, origin lease and the stage
// its run reports.
type jobRun struct {
	q    *Queue
	msg  jetstream.Msg
	log  *slog.Logger
	job  Job
	st   Status
	ls   *lease
	wait time.Duration // the origin's delay still to wait before the first request

	mu    sync.Mutex
	stage string
}

// take decodes a delivered message, checks the job's status, takes its origin's lease
// and marks it running. It returns nil when the job is not to run now (the message is
// then acknowledged, refused or put back), with whether the job was taken anyway (it
// failed for good after too many attempts).
func (q *Queue) take(ctx context.Context, worker string, msg jetstream.Msg) (*jobRun, bool) {
	var j Job
	if err := json.Unmarshal(msg.Data(), &j); err != nil || j.Key == "" {
		q.log.Error("queue: a message is not a job; dropped", "subject", msg.Subject(), "err", err)
		_ = msg.TermWithReason("not a trawl job")
		return nil, false
	}
	log := q.log.With("job", j.Key, "worker", worker)
	st, rev, err := q.getStatus(ctx, j.Key)
	if err != nil {
		log.Warn("queue: read status", "err", err)
		_ = msg.NakWithDelay(retryDelay)
		return nil, false
	}
	switch {
	case st.Final():
		// A second message of a finished job (enqueued again after the
		// de-duplication window, or redelivered after the first ack got lost).
		log.Info("queue: job already " + st.State + "; message acknowledged")
		_ = msg.Ack()
		return nil, false
	case st.State == StateRunning && st.Worker != worker && time.Since(st.Updated) < q.o.AckWait:
		// Another worker reports progress on it (two messages of one job).
		_ = msg.NakWithDelay(q.o.AckWait / 2)
		return nil, false
	}
	ls, wait, err := q.acquireLease(ctx, j.Origin(), worker+" "+j.Key, j.Delay)
	if err != nil {
		log.Warn("queue: origin lease", "err", err)
		_ = msg.NakWithDelay(retryDelay)
		return nil, false
	}
	if ls == nil {
		_ = msg.NakWithDelay(retryDelay) // the origin is busy: another job meanwhile
		return nil, false
	}
	jr := &jobRun{q: q, msg: msg, log: log, job: j, ls: ls, wait: wait}
	now := time.Now().UTC()
	jr.st = Status{Key: j.Key, Line: j.Line, URL: j.URL, State: StateRunning, Worker: worker,
		Attempts: st.Attempts + 1, Completions: st.Completions, Started: &now, Error: st.Error}
	if jr.st.Attempts > q.o.MaxAttempts {
		jr.st.State, jr.st.Error = StateFailed, fmt.Sprintf("gave up after %d attempts (workers died or lost their browser; last: %s)", q.o.MaxAttempts, st.Error)
		jr.st.Attempts = q.o.MaxAttempts
		jr.st.Finished = &now
		if _, err := q.putStatus(ctx, jr.st, rev); err != nil {
			log.Warn("queue: status", "err", err)
		}
		jr.releaseLease(ctx)
		_ = msg.Term()
		return nil, true
	}
	if _, err := q.putStatus(ctx, jr.st, rev); err != nil {
		// Someone else changed the status meanwhile: look again later.
		jr.releaseLease(ctx)
		_ = msg.NakWithDelay(retryDelay)
		return nil, false
	}
	return jr, true
}

// releaseLease frees the job's origin, even after ctx ended.
func (jr *jobRun) releaseLease(ctx context.Context) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := jr.ls.release(rctx); err != nil {
		jr.log.Warn("queue: release the lease", "err", err)
	}
}

// setStage records the stage the run reports (Runner's stage callback).
func (jr *jobRun) setStage(s string) {
	jr.mu.Lock()
	jr.stage = s
	jr.mu.Unlock()
}

func (jr *jobRun) currentStage() string {
	jr.mu.Lock()
	defer jr.mu.Unlock()
	return jr.stage
}

// heartbeats keeps the job alive until done: the message in progress, the lease
// renewed, the stage shown in the status. It cancels the run (ErrRelease) when another
// worker took the lease or no heartbeat reached the queue for half the ack wait.
func (jr *jobRun) heartbeats(jctx context.Context, cancelJob context.CancelCauseFunc, done <-chan struct{}) {
	q := jr.q
	tick := time.NewTicker(q.o.AckWait / 4)
	defer tick.Stop()
	lastOK := time.Now()
	shown := ""
	for {
		select {
		case <-done:
			return
		case <-jctx.Done():
			return
		case <-tick.C:
		}
		hctx, cancel := context.WithTimeout(jctx, q.o.AckWait/4)
		err := jr.msg.InProgress()
		if err == nil {
			err = jr.ls.renew(hctx)
		}
		if cur := jr.currentStage(); err == nil && cur != shown {
			s := jr.st
			s.Stage = cur
			if _, perr := q.putStatus(hctx, s, 0); perr == nil {
				shown = cur
			}
		}
		cancel()
		if err == nil {
			lastOK = time.Now()
			continue
		}
		jr.log.Warn("queue: heartbeat", "err", err)
		if errors.Is(err, jetstream.ErrKeyExists) {
			// Another worker took the lease: this one was taken for dead.
			cancelJob(fmt.Errorf("%w: another worker took the origin lease", ErrRelease))
			return
		}
		if time.Since(lastOK) > q.o.AckWait/2 {
			// The server may already have given the job to another worker.
			cancelJob(fmt.Errorf("%w: no heartbeat reached the queue for %v", ErrRelease, time.Since(lastOK).Round(time.Second)))
			return
		}
	}
}

// end writes the job's final status after its run: done, failed, or released back to
// the queue (the worker stops or lost the job), frees the origin and settles the
// message.
func (jr *jobRun) end(ctx context.Context, start time.Time, sum any, runErr error) {
	st := &jr.st
	fin := time.Now().UTC()
	st.Finished = &fin
	st.Seconds = time.Since(start).Seconds()
	st.Stage = jr.currentStage()
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	// ended writes the final status, frees the origin and acknowledges the message;
	// without the status written the message stays unacknowledged and comes back.
	ended := func() {
		if _, err := jr.q.putStatus(wctx, *st, 0); err != nil {
			jr.releaseLease(ctx)
			jr.log.Warn("queue: status "+st.State+"; the job will be redelivered", "err", err)
			return
		}
		jr.releaseLease(ctx)
		if err := jr.msg.DoubleAck(wctx); err != nil {
			jr.log.Warn("queue: acknowledge (a redelivery will see the job "+st.State+")", "err", err)
		}
	}
	switch {
	case runErr == nil:
		st.State, st.Error = StateDone, ""
		st.Completions++
		if b, err := json.Marshal(sum); err == nil && sum != nil {
			st.Summary = b
		}
		ended()
		jr.log.Info("queue: job done", "seconds", st.Seconds)
	case errors.Is(runErr, ErrRelease) || ctx.Err() != nil:
		st.State, st.Error, st.Finished = StateQueued, "released: "+runErr.Error(), nil
		if _, err := jr.q.putStatus(wctx, *st, 0); err != nil {
			jr.log.Warn("queue: status released", "err", err)
		}
		jr.releaseLease(ctx)
		_ = jr.msg.Nak()
		jr.log.Warn("queue: job released", "err", runErr)
	default:
		st.State, st.Error = StateFailed, runErr.Error()
		ended()
		jr.log.Warn("queue: job failed", "err", runErr)
	}
}
