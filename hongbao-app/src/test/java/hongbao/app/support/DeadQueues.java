package hongbao.app.support;

import hongbao.crypto.Sealer;
import hongbao.redis.RedisLink;
import hongbao.redis.reward.RedisRewardStream;
import hongbao.sdk.QueueTopology;
import hongbao.sdk.RewardSdk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;

/**
 * A reward SDK that stands for a process about to die holding the events it accepted: it reserves
 * and claims on the service's Redis as any SDK does, but no queue takes its events, and its retrier
 * would wait an hour. A test drops it where the process would die (closing it at the end, its
 * queues still refusing).
 */
public final class DeadQueues {

  /** The share of users, in percent, whose events try their queue's master first. */
  private static final int MASTER_PERCENT = 80;

  private DeadQueues() {}

  /**
   * Every queue refuses: Kafka at a port nobody listens on, and each Redis topic's stream replaced
   * by a key of another type, so Redis answers every XADD with WRONGTYPE. On the MASSIVE and
   * SPECIAL queues an event whose user's hash (mod 100) is below {@value #MASTER_PERCENT} tries
   * Kafka first, waits out its metadata timeout (2 s), and is then refused by Redis at once, so
   * closing the SDK costs no second Kafka timeout; EXPRESS events of those users try Redis first.
   */
  public static RewardSdk sdk(String redisUrl, Sealer keyset) {
    var topology =
        QueueTopology.parse(
            String.format(
                "MASSIVE=kafka:dead-massive|redis:dead-massive|%1$d;"
                    + "SPECIAL=kafka:dead-special|redis:dead-special|%1$d;"
                    + "EXPRESS=redis:dead-express|kafka:dead-express|%1$d",
                MASTER_PERCENT));
    RewardSdk sdk =
        RewardSdk.builder()
            .redis(redisUrl)
            .kafka("127.0.0.1:" + closedPort())
            .sealer(keyset)
            .topology(topology)
            .retryEvery(Duration.ofHours(1))
            .build();
    RedisLink link = sdk.parts().redis();
    for (RedisRewardStream topic : sdk.parts().redisTopics().values()) {
      for (String stream : topic.streams()) {
        link.sync().del(stream);
        link.sync().set(stream, "not a stream");
      }
    }
    return sdk;
  }

  /** Whether a MASSIVE or SPECIAL event of {@code user} tries Kafka first (see {@link #sdk}). */
  public static boolean kafkaFirst(String user) {
    return Math.floorMod(user.hashCode(), 100) < MASTER_PERCENT;
  }

  private static int closedPort() {
    try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
