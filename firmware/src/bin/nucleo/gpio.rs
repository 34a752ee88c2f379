//! GPIO by the port and number `boards` names, through the PAC's register blocks: the pins are
//! data, so they cannot be the HAL's one-type-per-pin values.

use boards::{Pin, Port};
use core::convert::Infallible;
use embedded_hal::digital::{ErrorType, InputPin, OutputPin};
use stm32f4xx_hal::pac;
use stm32f4xx_hal::rcc::Rcc;

/// Runs `$body` with `$rb` bound to the register block of `$port` (the ports' blocks are
/// different types with the same methods).
macro_rules! on_port {
    ($gpio:expr, $port:expr, $rb:ident => $body:expr) => {
        match $port {
            Port::A => {
                let $rb = &*$gpio.a;
                $body
            }
            Port::B => {
                let $rb = &*$gpio.b;
                $body
            }
            Port::C => {
                let $rb = &*$gpio.c;
                $body
            }
            Port::D => {
                let $rb = &*$gpio.d;
                $body
            }
            Port::H => {
                let $rb = &*$gpio.h;
                $body
            }
        }
    };
}

/// The bonded GPIO ports of the LQFP64 package.
pub struct Gpio {
    a: pac::GPIOA,
    b: pac::GPIOB,
    c: pac::GPIOC,
    d: pac::GPIOD,
    h: pac::GPIOH,
}

/// A pin of [`Gpio`].
#[derive(Clone, Copy)]
pub struct GpioPin<'a> {
    gpio: &'a Gpio,
    port: Port,
    number: u8,
}

fn split(pin: Pin) -> (Port, u8) {
    match pin {
        Pin::Stm32 { port, number } => (port, number),
        Pin::Arduino(_) => defmt::panic!("an Arduino pin on the STM32 board"),
    }
}

impl Gpio {
    /// Takes the ports and enables their clocks.
    pub fn new(
        a: pac::GPIOA,
        b: pac::GPIOB,
        c: pac::GPIOC,
        d: pac::GPIOD,
        h: pac::GPIOH,
        rcc: &mut Rcc,
    ) -> Gpio {
        rcc.ahb1enr().modify(|_, w| {
            w.gpioaen().set_bit();
            w.gpioben().set_bit();
            w.gpiocen().set_bit();
            w.gpioden().set_bit();
            w.gpiohen().set_bit()
        });
        Gpio { a, b, c, d, h }
    }

    fn pin(&self, pin: Pin) -> GpioPin<'_> {
        let (port, number) = split(pin);
        GpioPin {
            gpio: self,
            port,
            number,
        }
    }

    /// `pin` as a push-pull output, low.
    pub fn output(&self, pin: Pin) -> GpioPin<'_> {
        let (port, n) = split(pin);
        on_port!(self, port, rb => {
            rb.bsrr().write(|w| w.br(n).set_bit());
            rb.moder().modify(|_, w| w.moder(n).output());
        });
        self.pin(pin)
    }

    /// `pin` as an input without pull (the board's button has its own).
    pub fn input(&self, pin: Pin) -> GpioPin<'_> {
        let (port, n) = split(pin);
        on_port!(self, port, rb => {
            rb.pupdr().modify(|_, w| w.pupdr(n).floating());
            rb.moder().modify(|_, w| w.moder(n).input());
        });
        self.pin(pin)
    }

    /// `pin` in analog mode (RM0390, GPIO: the digital input and the pulls are disconnected).
    pub fn analog(&self, pin: Pin) {
        let (port, n) = split(pin);
        on_port!(self, port, rb => {
            rb.pupdr().modify(|_, w| w.pupdr(n).floating());
            rb.moder().modify(|_, w| w.moder(n).analog());
        });
    }

    /// `pin` on alternate function `af`, very high speed.
    pub fn alternate(&self, pin: Pin, af: u8) {
        let (port, n) = split(pin);
        on_port!(self, port, rb => {
            rb.ospeedr().modify(|_, w| w.ospeedr(n).very_high_speed());
            // AFRL holds pins 0..=7, AFRH pins 8..=15 (its field 0 is pin 8).
            if n < 8 {
                rb.afrl().modify(|_, w| w.afr(n).set(af));
            } else {
                rb.afrh().modify(|_, w| w.afr(n - 8).set(af));
            }
            rb.moder().modify(|_, w| w.moder(n).alternate());
        });
    }
}

impl ErrorType for GpioPin<'_> {
    type Error = Infallible;
}

impl OutputPin for GpioPin<'_> {
    fn set_low(&mut self) -> Result<(), Infallible> {
        let n = self.number;
        on_port!(self.gpio, self.port, rb => rb.bsrr().write(|w| w.br(n).set_bit()));
        Ok(())
    }

    fn set_high(&mut self) -> Result<(), Infallible> {
        let n = self.number;
        on_port!(self.gpio, self.port, rb => rb.bsrr().write(|w| w.bs(n).set_bit()));
        Ok(())
    }
}

impl InputPin for GpioPin<'_> {
    fn is_high(&mut self) -> Result<bool, Infallible> {
        let n = self.number;
        Ok(on_port!(self.gpio, self.port, rb => rb.idr().read().idr(n).bit_is_set()))
    }

    fn is_low(&mut self) -> Result<bool, Infallible> {
        self.is_high().map(|high| !high)
    }
}
