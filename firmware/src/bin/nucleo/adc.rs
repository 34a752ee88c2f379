//! The node sampler: ADC1 single conversions at the profile's resolution on the channel
//! `boards` gives each node, and the shared pull-up rail.

use boards::{NodePinError, PinMap};
use embedded_hal::digital::OutputPin;
use firmware::Sampler;
use heuristic::{Node, Size};
use stm32f4xx_hal::pac;
use stm32f4xx_hal::rcc::Rcc;

use crate::gpio::{Gpio, GpioPin};

const M4: Size = Size::M4;

/// The resolutions ADC1 converts at (RM0390 13.13.2, ADC_CR1.RES).
#[derive(Clone, Copy)]
pub enum Resolution {
    /// RES = 00.
    Twelve,
    /// RES = 01.
    Ten,
    /// RES = 10.
    Eight,
    /// RES = 11.
    Six,
}

impl Resolution {
    /// The resolution of `bits`, if ADC1 has it.
    pub const fn of(bits: u8) -> Option<Resolution> {
        match bits {
            12 => Some(Resolution::Twelve),
            10 => Some(Resolution::Ten),
            8 => Some(Resolution::Eight),
            6 => Some(Resolution::Six),
            _ => None,
        }
    }
}

/// ADC1 reading the cage, and the GPIO that drives the pull-up rail.
pub struct NodeAdc<'a> {
    adc: pac::ADC1,
    pins: &'static PinMap,
    rail: GpioPin<'a>,
}

impl<'a> NodeAdc<'a> {
    /// Puts every node pin in analog mode and configures ADC1: `bits` of resolution (the
    /// profile's `adc.bits_used`: 12, 10, 8 or 6, RM0390 13.13.2 ADC_CR1.RES), ADC clock PCLK2 / 4, 480-cycle sampling on every channel (the pull-ups make sources of up
    /// to 30 kΩ; DS10693 allows R_AIN up to 50 kΩ with long enough sampling).
    pub fn new(
        adc: pac::ADC1,
        common: pac::ADC_COMMON,
        gpio: &Gpio,
        pins: &'static PinMap,
        bits: Resolution,
        rail: GpioPin<'a>,
        rcc: &mut Rcc,
    ) -> NodeAdc<'a> {
        rcc.apb2enr().modify(|_, w| w.adc1en().set_bit());
        for (_, input) in pins.measured() {
            gpio.analog(input.pin);
        }
        common.ccr().modify(|_, w| w.adcpre().div4());
        adc.cr1().modify(|_, w| match bits {
            Resolution::Twelve => w.res().twelve_bit(),
            Resolution::Ten => w.res().ten_bit(),
            Resolution::Eight => w.res().eight_bit(),
            Resolution::Six => w.res().six_bit(),
        });
        // SMPR2 holds channels 0..=9, SMPR1 channels 10..=18 (its field 0 is channel 10).
        for n in 0..10 {
            adc.smpr2().modify(|_, w| w.smp(n).cycles480());
        }
        for n in 0..9 {
            adc.smpr1().modify(|_, w| w.smp(n).cycles480());
        }
        adc.sqr1().modify(|_, w| w.l().set(0));
        adc.cr2().modify(|_, w| w.adon().set_bit());
        NodeAdc { adc, pins, rail }
    }

    fn convert(&mut self, channel: u8) -> u16 {
        // SAFETY: SQ1 takes any channel number 0..=18; boards' validation keeps channels in range.
        #[allow(unsafe_code)]
        self.adc.sqr3().write(|w| unsafe { w.sq(0).bits(channel) });
        self.adc.sr().modify(|_, w| w.eoc().clear_bit());
        self.adc.cr2().modify(|_, w| w.swstart().set_bit());
        while self.adc.sr().read().eoc().bit_is_clear() {}
        self.adc.dr().read().data().bits()
    }
}

impl Sampler for NodeAdc<'_> {
    type Error = NodePinError;

    fn set_pullups(&mut self, on: bool) -> Result<(), NodePinError> {
        // The rail released is driven low (boards: RailRelease::DrivenLow).
        let _ = if on {
            self.rail.set_high()
        } else {
            self.rail.set_low()
        };
        Ok(())
    }

    fn read(&mut self, node: Node) -> Result<u16, NodePinError> {
        let input = self.pins.node(M4, node)?;
        Ok(self.convert(input.channel))
    }
}
