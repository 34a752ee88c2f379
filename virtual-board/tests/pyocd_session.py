"""A second, independent debugger on the virtual board's debug port: pyOCD (PyPI `pyocd`,
Apache-2.0), which shares no code with probe-rs, drives `virtual-board serve --dap tcp:...`
through its remote-probe client (`remote:HOST:PORT`) with its own ADIv5 and Cortex-M code, the
generic `cortex_m` target (the core found through the ROM table, no pack of ours).

usage: python3 pyocd_session.py HOST:PORT ELF_ENTRY_SYMBOL_ADDRESS_HEX

Each step prints one line `ok: ...`; any failure raises (exit 1), a missing pyocd exits 3.
"""

import sys

try:
    from pyocd.core.helpers import ConnectHelper
    from pyocd.core.target import Target
except ImportError:
    print("skipped: no pyocd (pip install pyocd)")
    sys.exit(3)

SRAM = 0x2000_0000


def main():
    address = sys.argv[1]
    breakpoint_at = int(sys.argv[2], 16)
    options = {
        "target_override": "cortex_m",
        # A second connect must not erase or reset what the first left.
        "connect_mode": "attach",
        "frequency": 1_000_000,
    }
    with ConnectHelper.session_with_chosen_probe(
        unique_id=f"remote:{address}", options=options
    ) as session:
        target = session.target
        # The core came from the ROM table walk: pyOCD names its architecture and FPU.
        core = target.selected_core
        cpuid = target.read32(0xE000_ED00)
        print(f"ok: found {core.name} (CPUID {cpuid:#010x}), {len(target.cores)} core(s)")
        assert core.name == "Cortex-M4", core.name
        assert core.has_fpu, "the Cortex-M4F's FPU (MVFR0) was found"
        assert len(target.aps) >= 1

        target.halt()
        assert target.get_state() == Target.State.HALTED
        print(f"ok: halted at pc {target.read_core_register('pc'):#010x}")

        # Registers both ways: core, special and FPU ones (DCRSR/DCRDR).
        for name, value in [("r0", 0x1234_5678), ("r7", 0xCAFE_F00D), ("s3", 0x3F80_0000)]:
            target.write_core_register_raw(name, value)
            read = target.read_core_register_raw(name)
            assert read == value, f"{name}: wrote {value:#x}, read {read:#x}"
        print("ok: r0, r7 and s3 written and read back")

        # Memory both ways through the MEM-AP: words and bytes in SRAM.
        target.write_memory_block32(SRAM + 0x1000, [0xDEAD_BEEF, 0x0102_0304])
        words = target.read_memory_block32(SRAM + 0x1000, 2)
        assert words == [0xDEAD_BEEF, 0x0102_0304], words
        target.write8(SRAM + 0x1001, 0x55)
        assert target.read32(SRAM + 0x1000) == 0xDEAD_55EF
        dev_id = target.read32(0xE004_2000) & 0xFFF
        assert dev_id == 0x421, f"DBGMCU_IDCODE DEV_ID {dev_id:#x}"
        print(f"ok: SRAM read and written, DBGMCU DEV_ID {dev_id:#x} (STM32F446)")

        # A reset that halts at the reset vector (VC_CORERESET).
        target.reset_and_halt()
        assert target.get_state() == Target.State.HALTED
        pc = target.read_core_register("pc")
        vector = target.read32(0x0800_0004) & ~1
        assert pc == vector, f"halted at {pc:#x}, the reset vector is {vector:#x}"
        print(f"ok: reset and halted at the reset vector {pc:#010x}")

        # One step.
        target.step()
        after = target.read_core_register("pc")
        assert after != pc, "a step moved the PC"
        print(f"ok: stepped to {after:#010x}")

        # A hardware breakpoint (an FPB comparator), then run into it.
        assert target.set_breakpoint(breakpoint_at, Target.BreakpointType.HW)
        target.resume()
        for _ in range(200):
            if target.get_state() == Target.State.HALTED:
                break
            import time

            time.sleep(0.01)
        assert target.get_state() == Target.State.HALTED, "the breakpoint halted the core"
        pc = target.read_core_register("pc")
        assert pc == breakpoint_at, f"halted at {pc:#x}, not at the breakpoint"
        print(f"ok: breakpoint at {breakpoint_at:#010x} reached")
        target.remove_breakpoint(breakpoint_at)

        target.reset_and_halt()
        target.resume()
        print("ok: reset and running")


if __name__ == "__main__":
    main()
