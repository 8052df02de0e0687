package hongbao.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * How long a Redis command may wait for its reply. Lettuce waits 60 s by default, and only for
 * synchronous calls: an asynchronous grab against a Redis that black-holes never completed. Every
 * command, synchronous or not, now fails after {@code command}; a blocking stream read is allowed
 * {@code block} more, the longest its caller may ask the server to hold it, so that a read that
 * simply found nothing is never mistaken for an outage.
 */
public final class RedisTimeouts extends TimeoutOptions.TimeoutSource {

  public static final Duration COMMAND_DEFAULT = Duration.ofSeconds(3);

  /** Commands whose reply the server may hold back for their BLOCK argument. */
  private static final Set<ProtocolKeyword> BLOCKING =
      Set.of(CommandType.XREAD, CommandType.XREADGROUP);

  private final long commandNanos;
  private final long blockingNanos;

  RedisTimeouts(Duration command, Duration block) {
    if (command.toMillis() < 1 || block.isNegative()) {
      throw new IllegalArgumentException(
          "command timeout must be at least 1 ms and block not negative: "
              + command
              + ", "
              + block);
    }
    this.commandNanos = command.toNanos();
    this.blockingNanos = command.plus(block).toNanos();
  }

  /** A client of the Redis at {@code url} whose every command is bounded as described above. */
  public static RedisClient client(String url, Duration command, Duration block) {
    RedisURI uri = RedisURI.create(url);
    uri.setTimeout(command);
    RedisClient client = RedisClient.create(uri);
    client.setOptions(options(command, block));
    return client;
  }

  /**
   * A link to the server or cluster at {@code url} (see {@link RedisLink#open}) whose every
   * command, on every node, is bounded as described above, and whose every command's latency goes
   * to {@code latencies}.
   */
  public static RedisLink link(
      String url, Duration command, Duration block, CommandLatencyRecorder latencies) {
    return RedisLink.open(url, options(command, block), command, latencies);
  }

  /**
   * As {@link #link(String, Duration, Duration, CommandLatencyRecorder)}, a link to one server
   * running on the HTTP server's {@code loops} (see {@link RedisLink}).
   */
  public static RedisLink link(
      String url,
      Duration command,
      Duration block,
      CommandLatencyRecorder latencies,
      EventLoops loops) {
    return RedisLink.open(url, options(command, block), command, latencies, loops);
  }

  /** Client options bounding every command, and the connect, as described above. */
  public static ClientOptions options(Duration command, Duration block) {
    return ClientOptions.builder()
        .socketOptions(SocketOptions.builder().connectTimeout(command).keepAlive(true).build())
        .timeoutOptions(
            TimeoutOptions.builder().timeoutSource(new RedisTimeouts(command, block)).build())
        .build();
  }

  @Override
  public long getTimeout(RedisCommand<?, ?, ?> command) {
    return BLOCKING.contains(command.getType()) ? blockingNanos : commandNanos;
  }

  @Override
  public TimeUnit getTimeUnit() {
    return TimeUnit.NANOSECONDS;
  }
}
