package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.money.Amount;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A reward credited while its user's statement is read: the book gains its row, then the server's
 * token copy is dropped, and this happens while the statement reads the copies. The reward must be
 * on the statement once, credited, whichever it was read from.
 */
class RewardStatementTest {

  private static final Reward REWARD =
      new Reward("t1", "u1", "c1", "rain", "CASH", Amount.fen(100), "", Instant.EPOCH);

  private static final RewardType CASH =
      new RewardType("CASH", RewardKind.CASH, 10, 1, false, VirtualQueue.SPECIAL, null);

  /** Whether the reward has been credited: the book has its row and the copy is gone. */
  private boolean credited;

  private final RewardBook book =
      only(
          RewardBook.class,
          (method, args) ->
              switch (method) {
                case "byUser" -> credited ? List.of(record()) : List.of();
                case "find" -> credited ? Optional.of(record()) : Optional.empty();
                default -> throw new AssertionError("the statement only reads: " + method);
              });

  /** The copies, with the credit landing while they are read. */
  private final TokenStore copies =
      only(
          TokenStore.class,
          (method, args) ->
              switch (method) {
                case "pending" -> {
                  credited = true;
                  yield List.of();
                }
                case "holds" -> !credited;
                default -> throw new AssertionError("the statement only reads: " + method);
              });

  private final RewardTokens tokens =
      only(
          RewardTokens.class,
          (method, args) ->
              switch (method) {
                case "open" -> Optional.of(REWARD).filter(r -> r.tradeNo().equals(args[0]));
                default -> throw new AssertionError("unexpected " + method);
              });

  private final RewardTypes types =
      only(
          RewardTypes.class,
          (method, args) ->
              switch (method) {
                case "find" -> Optional.of(CASH).filter(t -> t.type().equals(args[0]));
                default -> throw new AssertionError("unexpected " + method);
              });

  @Test
  void aRewardCreditedWhileTheStatementIsRead_isOnIt_once_credited() {
    var statement =
        new RewardStatement(
            tokens,
            copies,
            new TokenVerifier(tokens, copies, book, RewardMetrics.NONE),
            book,
            types);

    RewardStatement.Statement read = statement.statement("u1", List.of());

    assertThat(read.items()).containsExactly(new RewardStatement.Item(REWARD, true));
    assertThat(read.creditedAmount()).isEqualTo(Amount.fen(100));
    assertThat(read.pendingAmount()).isEqualTo(Amount.ZERO);
  }

  private static RewardRecord record() {
    return new RewardRecord(
        REWARD, REWARD.digest(), RewardKind.CASH, RewardRecord.Status.CREDITED, Instant.EPOCH, "");
  }

  /** The port's methods this test answers, by name; every other call fails the test. */
  private interface Answers {
    Object answer(String method, Object[] args);
  }

  private static <T> T only(Class<T> port, Answers answers) {
    return port.cast(
        Proxy.newProxyInstance(
            port.getClassLoader(),
            new Class<?>[] {port},
            (proxy, method, args) -> answers.answer(method.getName(), args)));
  }
}
