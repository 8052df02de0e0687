package hongbao.kafka;

import hongbao.core.money.Amount;
import hongbao.core.reward.Reward;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;

/** A reward event as a Kafka record value: version, attempt, then the reward's fields. */
final class RewardEventCodec {

  private static final byte VERSION = 1;

  private RewardEventCodec() {}

  /** A decoded event. */
  record Event(Reward reward, int attempt) {}

  static byte[] encode(Reward reward, int attempt) {
    var bytes = new ByteArrayOutputStream(160);
    try (var out = new DataOutputStream(bytes)) {
      out.writeByte(VERSION);
      out.writeInt(attempt);
      out.writeUTF(reward.tradeNo());
      out.writeUTF(reward.userId());
      out.writeUTF(reward.campaignId());
      out.writeUTF(reward.scene());
      out.writeUTF(reward.type());
      out.writeLong(reward.amount().fen());
      out.writeUTF(reward.desc());
      out.writeLong(reward.awardedAt().toEpochMilli());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static Event decode(byte[] value) {
    try (var in = new DataInputStream(new ByteArrayInputStream(value))) {
      byte version = in.readByte();
      if (version != VERSION) {
        throw new IllegalArgumentException("reward event of version " + version);
      }
      int attempt = in.readInt();
      Reward reward =
          new Reward(
              in.readUTF(),
              in.readUTF(),
              in.readUTF(),
              in.readUTF(),
              in.readUTF(),
              Amount.fen(in.readLong()),
              in.readUTF(),
              Instant.ofEpochMilli(in.readLong()));
      return new Event(reward, attempt);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
