package hongbao.testkit.sim;

import hongbao.core.payout.DeadLetter;
import hongbao.core.payout.PayoutQueue;
import hongbao.core.payout.PayoutTask;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A worker's view of the payout queue that can kill the worker between the ledger's commit and the
 * acknowledgement: armed, the next ack throws {@link SimulatedCrash} and acknowledges nothing.
 */
final class CrashingQueue implements PayoutQueue {

  private final PayoutQueue queue;
  private boolean crashOnNextAck;

  CrashingQueue(PayoutQueue queue) {
    this.queue = queue;
  }

  void crashOnNextAck() {
    crashOnNextAck = true;
  }

  @Override
  public List<PayoutTask> poll(String consumer, int max, Duration wait) {
    return queue.poll(consumer, max, wait);
  }

  @Override
  public void ack(List<PayoutTask> tasks) {
    if (crashOnNextAck && !tasks.isEmpty()) {
      crashOnNextAck = false;
      throw new SimulatedCrash("after paying " + tasks.size() + " tasks, before their ack");
    }
    queue.ack(tasks);
  }

  @Override
  public List<PayoutTask> reclaim(String consumer, Duration minIdle, int maxDeliveries, int max) {
    return queue.reclaim(consumer, minIdle, maxDeliveries, max);
  }

  @Override
  public void deadLetter(PayoutTask task, String reason) {
    queue.deadLetter(task, reason);
  }

  @Override
  public List<DeadLetter> deadLetters(int max) {
    return queue.deadLetters(max);
  }

  @Override
  public boolean redrive(String deadLetterId) {
    return queue.redrive(deadLetterId);
  }

  @Override
  public int removeIdleConsumers(Duration idle) {
    return queue.removeIdleConsumers(idle);
  }

  @Override
  public long backlog() {
    return queue.backlog();
  }

  @Override
  public List<PayoutTask> waitingHeads(Instant grabbedBefore, int max) {
    return queue.waitingHeads(grabbedBefore, max);
  }
}
