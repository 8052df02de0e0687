package hongbao.redis;

import hongbao.core.Invariants;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A Lua script from {@code resources/lua/}, run by its SHA-1 with EVALSHA. The SHA is computed
 * locally, so a script that a restarted (or failed-over) Redis has forgotten is simply loaded again
 * on the NOSCRIPT reply and retried once. Redis 6.2 has no FUNCTION, hence EVALSHA.
 *
 * <p>Immutable and thread-safe.
 */
public final class LuaScript {

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

  /** SCRIPT LOADs the script; checks Redis agrees on its SHA. */
  public void load(StatefulRedisConnection<String, String> connection) {
    String loaded = connection.sync().scriptLoad(source);
    Invariants.check(sha.equals(loaded), "script %s loaded as %s, expected %s", name, loaded, sha);
  }

  /**
   * Runs the script synchronously, loading it first if Redis does not know it.
   *
   * @throws hongbao.core.Unavailable when Redis is down or does not answer in time
   */
  public <T> T run(
      StatefulRedisConnection<String, String> connection,
      ScriptOutputType type,
      String[] keys,
      String... args) {
    try {
      try {
        return connection.sync().evalsha(sha, type, keys, args);
      } catch (RedisNoScriptException e) {
        load(connection);
        return connection.sync().evalsha(sha, type, keys, args);
      }
    } catch (RuntimeException e) {
      throw RedisFaults.translate(e);
    }
  }

  /** Runs the script without blocking; completes on a Lettuce thread. */
  public <T> CompletionStage<T> runAsync(
      StatefulRedisConnection<String, String> connection,
      ScriptOutputType type,
      String[] keys,
      String... args) {
    CompletionStage<T> first = connection.async().evalsha(sha, type, keys, args);
    return first
        .handle(
            (T reply, Throwable failure) -> {
              if (failure == null) {
                return CompletableFuture.completedStage(reply);
              }
              if (unwrap(failure) instanceof RedisNoScriptException) {
                return connection
                    .async()
                    .scriptLoad(source)
                    .thenCompose(
                        loaded ->
                            connection
                                .async()
                                .<T>evalsha(sha, type, keys, args)
                                .toCompletableFuture());
              }
              return CompletableFuture.<T>failedStage(failure);
            })
        .thenCompose(stage -> stage);
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
