package hongbao.redis;

import hongbao.core.Unavailable;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A Lua script from {@code resources/lua/}, run by its SHA-1 with EVALSHA. The SHA is computed
 * locally, so a script that a restarted (or failed-over, or newly added) master has forgotten is
 * simply loaded again on the NOSCRIPT reply — on every master — and retried once. Redis 6.2 has no
 * FUNCTION, hence EVALSHA.
 *
 * <p>On a cluster a script goes to the master of its first key's slot. While that slot is being
 * moved and the script's keys are split between the two masters (or some of them do not exist,
 * which Redis cannot tell apart), Redis answers TRYAGAIN without running it; the script is then
 * retried with a short growing pause for up to {@link #TRY_AGAIN_BUDGET}, the time a slot of a few
 * thousand small keys takes to move, before the caller is told Redis is {@link Unavailable}.
 *
 * <p>Immutable and thread-safe.
 */
public final class LuaScript {

  /** How long a script keeps being retried on TRYAGAIN. */
  public static final Duration TRY_AGAIN_BUDGET = Duration.ofSeconds(3);

  private static final long PAUSE_MIN_MILLIS = 2;
  private static final long PAUSE_MAX_MILLIS = 100;

  private final String name;
  private final String source;
  private final String sha;

  private LuaScript(String name, String source) {
    this.name = name;
    this.source = source;
    this.sha = sha1Hex(source);
  }

  /** Reads {@code /lua/<name>} from the class path. */
  public static LuaScript fromResource(String name) {
    try (InputStream in = LuaScript.class.getResourceAsStream("/lua/" + name)) {
      if (in == null) {
        throw new IllegalStateException("no Lua script on the class path: lua/" + name);
      }
      return new LuaScript(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("reading lua/" + name, e);
    }
  }

  public String name() {
    return name;
  }

  public String sha() {
    return sha;
  }

  /** SCRIPT LOADs the script on every master; checks each agrees on its SHA. */
  public void load(RedisLink redis) {
    redis.loadScript(source, sha);
  }

  /** As {@link #load(RedisLink)} on one server. */
  public void load(StatefulRedisConnection<String, String> connection) {
    load(RedisLink.of(connection));
  }

  /**
   * Runs the script synchronously, loading it first if Redis does not know it.
   *
   * @throws Unavailable when Redis is down, does not answer in time, or keeps answering TRYAGAIN
   */
  public <T> T run(RedisLink redis, ScriptOutputType type, String[] keys, String... args) {
    long deadline = System.nanoTime() + TRY_AGAIN_BUDGET.toNanos();
    for (int attempt = 0; ; attempt++) {
      try {
        return runOnce(redis, type, keys, args);
      } catch (RuntimeException e) {
        if (!RedisFaults.isTryAgain(e) || System.nanoTime() >= deadline) {
          throw RedisFaults.translate(e);
        }
        sleep(pauseMillis(attempt));
      }
    }
  }

  /** As {@link #run(RedisLink, ScriptOutputType, String[], String...)} on one server. */
  public <T> T run(
      StatefulRedisConnection<String, String> connection,
      ScriptOutputType type,
      String[] keys,
      String... args) {
    return run(RedisLink.of(connection), type, keys, args);
  }

  private <T> T runOnce(RedisLink redis, ScriptOutputType type, String[] keys, String... args) {
    try {
      return redis.sync().evalsha(sha, type, keys, args);
    } catch (RedisNoScriptException e) {
      load(redis);
      return redis.sync().evalsha(sha, type, keys, args);
    }
  }

  /**
   * Runs the script without blocking; completes on a Lettuce thread. TRYAGAIN is retried on the
   * client's scheduler, never by blocking a thread.
   */
  public <T> CompletionStage<T> runAsync(
      RedisLink redis, ScriptOutputType type, String[] keys, String... args) {
    return attemptAsync(redis, type, keys, args, 0, System.nanoTime() + TRY_AGAIN_BUDGET.toNanos());
  }

  /** As {@link #runAsync(RedisLink, ScriptOutputType, String[], String...)} on one server. */
  public <T> CompletionStage<T> runAsync(
      StatefulRedisConnection<String, String> connection,
      ScriptOutputType type,
      String[] keys,
      String... args) {
    return runAsync(RedisLink.of(connection), type, keys, args);
  }

  /*
   * A reply passes straight through (exceptionallyCompose adds no stage on success): only a
   * failure pays for the retry and reload logic, which keeps a grab's completion short.
   */
  private <T> CompletionStage<T> attemptAsync(
      RedisLink redis,
      ScriptOutputType type,
      String[] keys,
      String[] args,
      int attempt,
      long deadline) {
    CompletionStage<T> once = runOnceAsync(redis, type, keys, args);
    return once.exceptionallyCompose(
        failure -> {
          if (!RedisFaults.isTryAgain(failure) || System.nanoTime() >= deadline) {
            return CompletableFuture.failedStage(failure);
          }
          var retried = new CompletableFuture<T>();
          redis
              .scheduler()
              .schedule(
                  () ->
                      this.<T>attemptAsync(redis, type, keys, args, attempt + 1, deadline)
                          .whenComplete(
                              (T value, Throwable error) -> {
                                if (error == null) {
                                  retried.complete(value);
                                } else {
                                  retried.completeExceptionally(error);
                                }
                              }),
                  pauseMillis(attempt),
                  TimeUnit.MILLISECONDS);
          return retried;
        });
  }

  private <T> CompletionStage<T> runOnceAsync(
      RedisLink redis, ScriptOutputType type, String[] keys, String[] args) {
    CompletionStage<T> first = redis.async().evalsha(sha, type, keys, args);
    return first.exceptionallyCompose(
        failure -> {
          if (unwrap(failure) instanceof RedisNoScriptException) {
            return redis
                .loadScriptAsync(source, sha)
                .thenCompose(
                    loaded ->
                        redis.async().<T>evalsha(sha, type, keys, args).toCompletableFuture());
          }
          return CompletableFuture.<T>failedStage(failure);
        });
  }

  /** 2, 4, 8, ... ms, at most {@value #PAUSE_MAX_MILLIS}. */
  static long pauseMillis(int attempt) {
    return Math.min(PAUSE_MAX_MILLIS, PAUSE_MIN_MILLIS << Math.min(attempt, 16));
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Unavailable("redis", "interrupted while a slot was moving", e);
    }
  }

  private static Throwable unwrap(Throwable failure) {
    Throwable cause = failure;
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  private static String sha1Hex(String source) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is required of every JVM", e);
    }
  }
}
