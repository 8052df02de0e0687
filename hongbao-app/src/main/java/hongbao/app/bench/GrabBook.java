package hongbao.app.bench;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The benchmark's own audit, from nothing but the answers it received: per packet the GRABBED
 * amounts sum to at most the amount (exactly the amount once every share went), no user got two
 * shares, and no more shares went than the packet has. Thread-safe.
 */
final class GrabBook {

  private final Map<String, Tally> packets = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
  private final List<String> problems = new ArrayList<>();

  void packet(String id, long amountFen, int count) {
    packets.put(id, new Tally(amountFen, count));
  }

  /** Records one grab answer (with its {@code _status}). */
  void answer(String packetId, String userId, JsonObject body) {
    int status = body.getInteger("_status", 0);
    String outcome = status == 200 ? body.getString("outcome", "?") : "HTTP_" + status;
    outcomes.computeIfAbsent(outcome, k -> new LongAdder()).increment();
    if ("GRABBED".equals(outcome)) {
      Tally tally = packets.get(packetId);
      if (tally == null) {
        problem("grab of unknown packet " + packetId);
        return;
      }
      tally.grabbed(userId, body.getLong("amount", 0L));
    }
  }

  void outcome(String name) {
    outcomes.computeIfAbsent(name, k -> new LongAdder()).increment();
  }

  long count(String outcome) {
    LongAdder adder = outcomes.get(outcome);
    return adder == null ? 0 : adder.sum();
  }

  Map<String, Long> outcomes() {
    var copy = new TreeMap<String, Long>();
    outcomes.forEach((name, adder) -> copy.put(name, adder.sum()));
    return copy;
  }

  int packetCount() {
    return packets.size();
  }

  private synchronized void problem(String text) {
    if (problems.size() < 100) {
      problems.add(text);
    }
  }

  /** Every discrepancy the answers show; empty when they add up. */
  List<String> discrepancies() {
    packets.forEach((id, tally) -> tally.check(id, this::problem));
    synchronized (this) {
      return List.copyOf(problems);
    }
  }

  private static final class Tally {
    private final long amountFen;
    private final int count;
    private final Set<String> users = new HashSet<>();
    private final List<String> duplicates = new ArrayList<>();
    private long sumFen;
    private int grabs;

    Tally(long amountFen, int count) {
      this.amountFen = amountFen;
      this.count = count;
    }

    synchronized void grabbed(String userId, long fen) {
      grabs++;
      sumFen += fen;
      if (!users.add(userId) && duplicates.size() < 10) {
        duplicates.add(userId);
      }
    }

    synchronized void check(String id, java.util.function.Consumer<String> problem) {
      if (sumFen > amountFen) {
        problem.accept(id + ": grabbed " + sumFen + " fen of " + amountFen);
      }
      if (grabs > count) {
        problem.accept(id + ": " + grabs + " shares grabbed of " + count);
      }
      if (grabs == count && sumFen != amountFen) {
        problem.accept(id + ": every share went but they sum to " + sumFen + " not " + amountFen);
      }
      if (!duplicates.isEmpty()) {
        problem.accept(id + ": users with two shares " + duplicates);
      }
    }
  }
}
