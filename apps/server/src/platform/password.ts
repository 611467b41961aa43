import argon2 from 'argon2';

/** argon2id, by default with the library's defaults (64 MiB, t=3); the cost is set once at start. */
let hashCost = { memoryCost: 65_536, timeCost: 3 };
export function configurePasswordHashing(cost: { memoryCost: number; timeCost: number }): void {
  hashCost = cost;
}
/** A hash carries its own parameters, so hashes made at another cost still verify. */
export const hashPassword = (plain: string) => argon2.hash(plain, { type: argon2.argon2id, ...hashCost });
export const verifyPassword = (hash: string, plain: string) => argon2.verify(hash, plain).catch(() => false);
