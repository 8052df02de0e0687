package hongbao.app.bench;

import hongbao.http.PacketIds;
import hongbao.redis.LuaScript;
import hongbao.redis.RedisKeys;
import hongbao.redis.grab.RedisGrabStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The ceiling: how many grabs per second the bare grab script does on the same Redis, measured with
 * {@code redis-benchmark} (EVALSHA of grab.lua with a distinct user per call through {@code
 * __rand_int__}) against a packet armed with as many shares as calls, so every call takes the full
 * GRABBED path, pending entry included. Everything the HTTP service adds sits between this and the
 * end-to-end rate.
 */
final class Ceiling {

  private static final int CLIENTS = 50;
  private static final long TIMEOUT_SECONDS = 300;

  private Ceiling() {}

  /**
   * The internal number of the packet the service handed out as {@code packetId}, checked against
   * the service's Redis: under a wrong alphabet (or shard count) the script would run on keys that
   * do not exist, and redis-benchmark would time a refusal instead of a grab.
   *
   * @throws IllegalStateException when the packet is not in Redis under the number decoded
   */
  static long packetNumber(String packetId, PacketIds ids, RedisKeys keys, RedisInfo redis) {
    long numericId = ids.decode(packetId);
    if (numericId < 0 || !redis.exists(keys.meta(numericId))) {
      throw new IllegalStateException(
          "packet "
              + packetId
              + " is not in the service's Redis under the id the bench decodes: give the"
              + " service's packet id alphabet with --id-alphabet and its HONGBAO_SHARDS with"
              + " --shards");
    }
    return numericId;
  }

  /**
   * Runs redis-benchmark; returns grabs per second.
   *
   * @param numericId the packet's internal id (the Sqids-decoded public id)
   * @param prefix what starts redis-benchmark (a {@code taskset} onto the generator's CPUs)
   * @param now the grab time every benchmarked call passes
   */
  static double measure(
      String redisUrl,
      RedisKeys keys,
      long numericId,
      int requests,
      List<String> prefix,
      Path installScript,
      Instant now)
      throws IOException, InterruptedException {
    ensureInstalled(installScript);
    URI uri = URI.create(redisUrl);
    String sha = LuaScript.fromResource("grab.lua").sha();
    List<String> command = new ArrayList<>(prefix);
    command.addAll(
        List.of(
            "redis-benchmark",
            "-h",
            uri.getHost(),
            "-p",
            Integer.toString(uri.getPort()),
            "-c",
            Integer.toString(CLIENTS),
            "-n",
            Integer.toString(requests),
            "-r",
            "1000000000",
            "--csv",
            "EVALSHA",
            sha,
            "6",
            keys.meta(numericId),
            keys.shares(numericId),
            keys.grabs(numericId),
            keys.eligible(numericId),
            keys.payoutsOf(numericId),
            // The pending entry, written by the script as the service's store does on one server
            // (redis-benchmark draws each __rand_int__ on its own: another user's hash, same cost).
            keys.pending("ceil-__rand_int__"),
            "ceil-__rand_int__",
            Long.toString(now.toEpochMilli()),
            "",
            Long.toString(numericId),
            "0",
            Long.toString(RedisGrabStore.DEFAULT_KEY_GRACE.toMillis())));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    var lines = new ArrayList<String>();
    try (var reader =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        lines.add(line);
      }
    }
    if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroy();
      throw new IOException("redis-benchmark failed: " + lines);
    }
    for (String line : lines) {
      // "EVALSHA ...","123456.78",...
      if (line.startsWith("\"EVALSHA")) {
        String[] fields = line.split("\",\"");
        return Double.parseDouble(fields[1].replace("\"", ""));
      }
    }
    throw new IOException("no EVALSHA line in redis-benchmark output: " + lines);
  }

  private static void ensureInstalled(Path installScript) throws IOException, InterruptedException {
    if (onPath("redis-benchmark")) {
      return;
    }
    if (!Files.isRegularFile(installScript)) {
      throw new IOException("redis-benchmark missing and no " + installScript + " to install it");
    }
    Process install = new ProcessBuilder("bash", installScript.toString()).inheritIO().start();
    if (!install.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || install.exitValue() != 0) {
      throw new IOException("could not install redis-tools with " + installScript);
    }
  }

  private static boolean onPath(String program) {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (Files.isExecutable(Path.of(dir, program))) {
        return true;
      }
    }
    return false;
  }
}
