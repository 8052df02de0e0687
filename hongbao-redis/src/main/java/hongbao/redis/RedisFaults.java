package hongbao.redis;

import hongbao.core.NotNow;
import hongbao.core.Unavailable;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.cluster.PartitionException;
import java.io.IOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Sorts what the Redis client throws: a connection that is down or closed, a command that timed
 * out, a cluster with no node for a slot, or an error reply that says "not now" ({@link NotNow}: a
 * server loading its data set, a replica refusing writes after a failover, memory full, a slot
 * being moved...) is {@link Unavailable} (an outage, waited out); any other error reply to a
 * command is a bug in the caller and passes through unchanged.
 */
public final class RedisFaults {

  private RedisFaults() {}

  /** The failure as an outage if it is one, else as it was. */
  public static RuntimeException translate(Throwable failure) {
    Throwable cause = unwrap(failure);
    if (cause instanceof Unavailable unavailable) {
      return unavailable;
    }
    if (isOutage(cause)) {
      return new Unavailable("redis", String.valueOf(cause.getMessage()), cause);
    }
    return cause instanceof RuntimeException runtime ? runtime : new CompletionException(cause);
  }

  /**
   * Whether the failure is a cluster's TRYAGAIN: a command naming several keys of a slot that is
   * being moved, while the keys are split between the two masters. Nothing was done; the same
   * command succeeds once the keys have moved.
   */
  public static boolean isTryAgain(Throwable failure) {
    Throwable cause = unwrap(failure);
    return cause instanceof RedisCommandExecutionException
        && String.valueOf(cause.getMessage()).startsWith("TRYAGAIN");
  }

  private static Throwable unwrap(Throwable failure) {
    Throwable cause = failure;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  static boolean isOutage(Throwable failure) {
    if (failure instanceof RedisCommandTimeoutException
        || failure instanceof RedisConnectionException
        || failure instanceof TimeoutException) {
      return true;
    }
    if (failure instanceof RedisCommandExecutionException reply) {
      return NotNow.redisReply(reply.getMessage());
    }
    if (failure instanceof PartitionException) {
      return true; // no node known for the slot: the topology is changing or the cluster is down
    }
    if (failure instanceof RedisException redis) {
      // "Connection closed", "Connection is closed" and I/O failures under a Lettuce wrapper
      return redis.getCause() instanceof IOException
          || String.valueOf(redis.getMessage()).contains("onnection");
    }
    return failure instanceof IOException;
  }
}
