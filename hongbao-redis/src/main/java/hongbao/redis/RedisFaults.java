package hongbao.redis;

import hongbao.core.Unavailable;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import java.io.IOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;

/**
 * Sorts what the Redis client throws: a connection that is down or closed, a command that timed
 * out, or a server that is still loading its data set is {@link Unavailable} (an outage, waited
 * out); an error reply to a command is a bug in the caller and passes through unchanged.
 */
public final class RedisFaults {

  private RedisFaults() {}

  /** The failure as an outage if it is one, else as it was. */
  public static RuntimeException translate(Throwable failure) {
    Throwable cause = failure;
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof Unavailable unavailable) {
      return unavailable;
    }
    if (isOutage(cause)) {
      return new Unavailable("redis", String.valueOf(cause.getMessage()), cause);
    }
    return cause instanceof RuntimeException runtime ? runtime : new CompletionException(cause);
  }

  static boolean isOutage(Throwable failure) {
    if (failure instanceof RedisCommandTimeoutException
        || failure instanceof RedisConnectionException
        || failure instanceof TimeoutException) {
      return true;
    }
    if (failure instanceof RedisCommandExecutionException reply) {
      String message = String.valueOf(reply.getMessage());
      return message.startsWith("LOADING") || message.startsWith("MASTERDOWN");
    }
    if (failure instanceof RedisException redis) {
      // "Connection closed", "Connection is closed" and I/O failures under a Lettuce wrapper
      return redis.getCause() instanceof IOException
          || String.valueOf(redis.getMessage()).contains("onnection");
    }
    return failure instanceof IOException;
  }
}
