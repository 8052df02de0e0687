package hongbao.crypto;

import hongbao.core.money.Amount;
import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardTokens;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;

/**
 * Reward tokens sealed with AES-256-GCM: {@code <userId>~<sealed body>}. The body is compact binary
 * (version, tradeNo, campaign, scene, type, amount, award time, desc; strings as one length byte
 * and UTF-8) and the user id is bound as associated data together with the purpose "reward", so a
 * token opens only for its user and never as another kind of token. The user id in front is only a
 * hint of whose token it is (so an operator can open any): changing it makes the token fail to
 * open. With the limits of {@code RewardRules} a token is at most 501 characters.
 */
public final class SealedRewardTokens implements RewardTokens {

  private static final byte VERSION = 1;
  private static final String PURPOSE = "hongbao.reward.v1|";
  private static final char SEPARATOR = '~';

  private final Sealer sealer;

  public SealedRewardTokens(Sealer sealer) {
    this.sealer = sealer;
  }

  @Override
  public String seal(Reward reward) {
    byte[][] strings = {
      utf8(reward.tradeNo()),
      utf8(reward.campaignId()),
      utf8(reward.scene()),
      utf8(reward.type()),
      utf8(reward.desc())
    };
    int size = 1 + 8 + 8;
    for (byte[] s : strings) {
      size += 1 + s.length;
    }
    ByteBuffer body = ByteBuffer.allocate(size).put(VERSION);
    for (int i = 0; i < 4; i++) {
      putString(body, strings[i]);
    }
    body.putLong(reward.amount().fen()).putLong(reward.awardedAt().toEpochMilli());
    putString(body, strings[4]);
    String token =
        reward.userId() + SEPARATOR + sealer.seal(body.array(), associatedData(reward.userId()));
    if (token.length() > MAX_CHARS) {
      throw new IllegalStateException("a reward token of " + token.length() + " characters");
    }
    return token;
  }

  @Override
  public Optional<Reward> open(String token, String userId) {
    if (token == null || token.length() > MAX_CHARS) {
      return Optional.empty();
    }
    int separator = token.indexOf(SEPARATOR);
    if (separator < 1 || !token.substring(0, separator).equals(userId)) {
      return Optional.empty();
    }
    return sealer
        .open(token.substring(separator + 1), associatedData(userId))
        .flatMap(body -> decode(body, userId));
  }

  @Override
  public Optional<Reward> openAny(String token) {
    if (token == null) {
      return Optional.empty();
    }
    int separator = token.indexOf(SEPARATOR);
    return separator < 1 ? Optional.empty() : open(token, token.substring(0, separator));
  }

  private static Optional<Reward> decode(byte[] bytes, String userId) {
    try {
      ByteBuffer body = ByteBuffer.wrap(bytes);
      if (body.get() != VERSION) {
        return Optional.empty();
      }
      String tradeNo = getString(body);
      String campaign = getString(body);
      String scene = getString(body);
      String type = getString(body);
      long fen = body.getLong();
      long millis = body.getLong();
      String desc = getString(body);
      if (body.hasRemaining()) {
        return Optional.empty();
      }
      return Optional.of(
          new Reward(
              tradeNo,
              userId,
              campaign,
              scene,
              type,
              Amount.fen(fen),
              desc,
              Instant.ofEpochMilli(millis)));
    } catch (RuntimeException e) {
      // Genuine but unreadable (a body of another version): not a token this service made.
      return Optional.empty();
    }
  }

  private static byte[] utf8(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (bytes.length > 255) {
      throw new IllegalArgumentException("a token field over 255 bytes");
    }
    return bytes;
  }

  private static void putString(ByteBuffer body, byte[] bytes) {
    body.put((byte) bytes.length).put(bytes);
  }

  private static String getString(ByteBuffer body) {
    int length = body.get() & 0xff;
    byte[] bytes = new byte[length];
    body.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static byte[] associatedData(String userId) {
    return (PURPOSE + userId).getBytes(StandardCharsets.UTF_8);
  }
}
