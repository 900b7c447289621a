import "server-only";
import type { TesterKind, TesterKindName } from "@/server/checking/probe/types";
import { dnsTesterKind } from "./dns";
import { globalpingTesterKind } from "./globalping";
import { httpTesterKind } from "./http";
import { remoteTesterKind } from "./remote";
import { tcpTesterKind } from "./tcp";
import { tlsTesterKind } from "./tls";

/** Every tester kind there is. A new kind is one file in this folder and one line here. */
export const TESTER_KIND_LIST: readonly TesterKind<never>[] = [
  httpTesterKind,
  dnsTesterKind,
  tcpTesterKind,
  tlsTesterKind,
  remoteTesterKind,
  globalpingTesterKind,
] as TesterKind<never>[];

export const testerKindsByName: ReadonlyMap<TesterKindName, TesterKind<never>> = new Map(TESTER_KIND_LIST.map((kind) => [kind.name, kind]));
