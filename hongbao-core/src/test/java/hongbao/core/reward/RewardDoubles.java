package hongbao.core.reward;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Optional;

/** Stand-ins the reward tests share. */
final class RewardDoubles {

  private RewardDoubles() {}

  /** Every virtual queue on {@code producer}, as master and backup. */
  static RewardQueues queuesOn(RewardProducer producer) {
    var queues = new ArrayList<FailoverQueue>();
    for (VirtualQueue name : VirtualQueue.values()) {
      queues.add(new FailoverQueue(name, producer, producer, 100, Clock.systemUTC()));
    }
    return new RewardQueues(queues, RewardMetrics.NONE);
  }

  /** A book that has seen nothing; anything but a lookup would be a wrong turn. */
  static RewardBook emptyBook() {
    return (RewardBook)
        Proxy.newProxyInstance(
            RewardBook.class.getClassLoader(),
            new Class<?>[] {RewardBook.class},
            (proxy, method, args) -> {
              if (method.getName().equals("find")) {
                return Optional.empty();
              }
              throw new AssertionError("unexpected " + method.getName());
            });
  }
}
