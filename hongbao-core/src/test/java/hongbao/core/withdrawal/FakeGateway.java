package hongbao.core.withdrawal;

import hongbao.core.money.Amount;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * A gateway with a real gateway's rules — an out-trade-no is paid at most once, a final FAIL closes
 * it, a retryable one leaves nothing — and faults scripted call by call. It logs every call, so a
 * test can check that nothing was re-sent without asking first.
 */
final class FakeGateway implements Gateway, GatewayStatements {

  enum OnTransfer {
    PAY,
    PAY_THEN_ERROR,
    ERROR,
    DROP,
    PAY_SILENTLY,
    HOLD,
    FAIL_FINAL,
    FAIL_RETRYABLE
  }

  enum OnQuery {
    ANSWER,
    ERROR
  }

  final Map<String, Amount> paid = new HashMap<>();
  final Set<String> failed = new HashSet<>();
  final Set<String> processing = new HashSet<>();
  private final Map<String, Amount> held = new HashMap<>();
  final List<String> calls = new ArrayList<>();
  final Deque<OnTransfer> transfers = new ArrayDeque<>();
  final Deque<OnQuery> queries = new ArrayDeque<>();
  int payments;
  private RandomGenerator chaos;

  /** From now on every unscripted call draws its fault at random. */
  FakeGateway chaos(RandomGenerator random) {
    this.chaos = random;
    return this;
  }

  FakeGateway then(OnTransfer... next) {
    transfers.addAll(List.of(next));
    return this;
  }

  FakeGateway thenQuery(OnQuery... next) {
    queries.addAll(List.of(next));
    return this;
  }

  /** A held request completes: paid. */
  void finishProcessing(String outTradeNo, Amount amount) {
    processing.remove(outTradeNo);
    pay(outTradeNo, amount);
  }

  @Override
  public synchronized TransferAnswer transfer(String outTradeNo, String userId, Amount amount) {
    calls.add("T:" + outTradeNo);
    if (paid.containsKey(outTradeNo)) {
      return new TransferAnswer.Success("G-" + outTradeNo, paid.get(outTradeNo));
    }
    if (failed.contains(outTradeNo)) {
      return new TransferAnswer.Fail("CLOSED", false);
    }
    if (processing.contains(outTradeNo)) {
      return new TransferAnswer.SystemError("ORDER_PROCESSING");
    }
    OnTransfer mode =
        !transfers.isEmpty()
            ? transfers.poll()
            : chaos == null || chaos.nextInt(3) == 0
                ? OnTransfer.PAY
                : OnTransfer.values()[chaos.nextInt(OnTransfer.values().length)];
    return switch (mode) {
      case PAY -> {
        pay(outTradeNo, amount);
        yield new TransferAnswer.Success("G-" + outTradeNo, amount);
      }
      case PAY_THEN_ERROR -> {
        pay(outTradeNo, amount);
        yield new TransferAnswer.SystemError("SYSTEMERROR");
      }
      case PAY_SILENTLY -> {
        pay(outTradeNo, amount);
        yield new TransferAnswer.NoAnswer("read timed out");
      }
      case ERROR -> new TransferAnswer.SystemError("SYSTEMERROR");
      case DROP -> new TransferAnswer.NoAnswer("read timed out");
      case HOLD -> {
        processing.add(outTradeNo);
        held.put(outTradeNo, amount);
        yield new TransferAnswer.NoAnswer("read timed out");
      }
      case FAIL_FINAL -> {
        failed.add(outTradeNo);
        yield new TransferAnswer.Fail("PAYEE_ACCOUNT_ABNORMAL", false);
      }
      case FAIL_RETRYABLE -> new TransferAnswer.Fail("FREQUENCY_LIMITED", true);
    };
  }

  private void pay(String outTradeNo, Amount amount) {
    paid.put(outTradeNo, amount);
    payments++;
  }

  @Override
  public synchronized QueryAnswer query(String outTradeNo) {
    calls.add("Q:" + outTradeNo);
    OnQuery mode =
        !queries.isEmpty()
            ? queries.poll()
            : chaos != null && chaos.nextInt(5) == 0 ? OnQuery.ERROR : OnQuery.ANSWER;
    if (mode == OnQuery.ERROR) {
      return new QueryAnswer.NoAnswer("SYSTEMERROR");
    }
    if (paid.containsKey(outTradeNo)) {
      return new QueryAnswer.Success("G-" + outTradeNo, paid.get(outTradeNo));
    }
    if (failed.contains(outTradeNo)) {
      return new QueryAnswer.Fail("PAYEE_ACCOUNT_ABNORMAL");
    }
    if (processing.contains(outTradeNo)) {
      if (chaos != null && chaos.nextBoolean()) {
        finishProcessing(outTradeNo, held.get(outTradeNo));
        return new QueryAnswer.Success("G-" + outTradeNo, paid.get(outTradeNo));
      }
      return new QueryAnswer.Processing();
    }
    return new QueryAnswer.NotFound();
  }

  @Override
  public synchronized List<StatementLine> statement(LocalDate day) {
    var lines = new ArrayList<StatementLine>();
    paid.forEach((no, amount) -> lines.add(new StatementLine(no, amount, true, Withdrawals.T0)));
    failed.forEach(no -> lines.add(new StatementLine(no, Amount.fen(1), false, Withdrawals.T0)));
    return day.equals(LocalDate.ofInstant(Withdrawals.T0, ZoneOffset.UTC)) ? lines : List.of();
  }

  /** Calls for one out-trade-no, in order: "T" transfer, "Q" query. */
  synchronized String callsOf(String outTradeNo) {
    var out = new StringBuilder();
    for (String call : calls) {
      if (call.endsWith(":" + outTradeNo)) {
        out.append(call.charAt(0));
      }
    }
    return out.toString();
  }
}
